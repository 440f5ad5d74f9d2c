/**
 * The default categories every group has (API.md §14): fixed, flat, with stable ids. Splitwise's
 * list has 7 parents and about 40 children; a picker of 10 is what one thumb scrolls, and
 * `SPLITWISE_CATEGORIES` maps every Splitwise child onto one of these. A group adds its own.
 */
export const DEFAULT_CATEGORIES = [
  { id: 'food', name: 'Food & drink', icon: '🍽️', color: '#e07a5f' },
  { id: 'groceries', name: 'Groceries', icon: '🛒', color: '#81b29a' },
  { id: 'transport', name: 'Transport', icon: '🚌', color: '#3d5a80' },
  { id: 'travel', name: 'Travel & lodging', icon: '✈️', color: '#98c1d9' },
  { id: 'home', name: 'Home & rent', icon: '🏠', color: '#6d597a' },
  { id: 'utilities', name: 'Utilities', icon: '💡', color: '#f2cc8f' },
  { id: 'entertainment', name: 'Entertainment', icon: '🎬', color: '#b56576' },
  { id: 'health', name: 'Health', icon: '💊', color: '#2a9d8f' },
  { id: 'shopping', name: 'Shopping & gifts', icon: '🛍️', color: '#e9c46a' },
  { id: 'other', name: 'Other', icon: '📦', color: '#8d99ae' },
] as const;

export type DefaultCategoryId = (typeof DEFAULT_CATEGORIES)[number]['id'];

const DEFAULT_IDS: ReadonlySet<string> = new Set(DEFAULT_CATEGORIES.map((c) => c.id));

export const isDefaultCategory = (id: string): id is DefaultCategoryId => DEFAULT_IDS.has(id);

/**
 * Splitwise's category names (its CSV export's `Category` column: the child's name, lower-cased
 * here) onto Tally's defaults. A name not listed becomes one of the group's own categories.
 */
export const SPLITWISE_CATEGORIES: Readonly<Record<string, DefaultCategoryId>> = {
  'dining out': 'food',
  'food and drink - other': 'food',
  'food and drink': 'food',
  liquor: 'food',
  groceries: 'groceries',
  'bus/train': 'transport',
  car: 'transport',
  'gas/fuel': 'transport',
  parking: 'transport',
  taxi: 'transport',
  bicycle: 'transport',
  'transportation - other': 'transport',
  transportation: 'transport',
  plane: 'travel',
  hotel: 'travel',
  rent: 'home',
  mortgage: 'home',
  furniture: 'home',
  'household supplies': 'home',
  maintenance: 'home',
  electronics: 'home',
  pets: 'home',
  services: 'home',
  'home - other': 'home',
  home: 'home',
  electricity: 'utilities',
  'heat/gas': 'utilities',
  water: 'utilities',
  trash: 'utilities',
  'tv/phone/internet': 'utilities',
  cleaning: 'utilities',
  'utilities - other': 'utilities',
  utilities: 'utilities',
  games: 'entertainment',
  movies: 'entertainment',
  music: 'entertainment',
  sports: 'entertainment',
  'entertainment - other': 'entertainment',
  entertainment: 'entertainment',
  'medical expenses': 'health',
  clothing: 'shopping',
  gifts: 'shopping',
  general: 'other',
  childcare: 'other',
  education: 'other',
  insurance: 'other',
  taxes: 'other',
  'life - other': 'other',
  other: 'other',
  uncategorized: 'other',
};
