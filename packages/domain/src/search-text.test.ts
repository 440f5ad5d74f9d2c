import { expenseSearchText, normalizeSearchText, searchWordsOf } from './search-text';

describe('normalizeSearchText', () => {
  it('folds case, accents and compatibility forms', () => {
    expect(normalizeSearchText('Café CRÈME')).toBe('cafe creme');
    expect(normalizeSearchText('ﬁsh Ⅻ')).toBe('fish xii');
    expect(normalizeSearchText('İstanbul')).toBe('istanbul');
  });

  it('keeps the description and the category on separate lines', () => {
    expect(expenseSearchText('Dîner', 'Food')).toBe('diner\nfood');
    expect(expenseSearchText('Taxi', null)).toBe('taxi\n');
  });

  it('splits a query into normalized words, dropping empty ones', () => {
    expect(searchWordsOf('  Café\u00a0 crème\tbrûlée ')).toEqual(['cafe', 'creme', 'brulee']);
    expect(searchWordsOf(' \u0301 ')).toEqual([]);
  });
});
