// Categories (API.md §14.1): the default list and the group's own; the picker of the expense form,
// the filter of the expense list, and the screen that creates, renames, recolours, deletes and
// merges the group's own.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { t } from './messages.js';
import { attempt, cached, describe, say, tally } from './session.js';
import { Field } from './ui.js';

/** The group's categories (defaults first), and a function that reads them again. */
export function useCategories(groupId) {
  const [list, setList] = useState([]);
  const reload = () => tally.categories.list(groupId).then(setList, (error) => say(describe(error), true));
  useEffect(() => {
    void reload();
  }, [groupId]);
  return [list, reload];
}

/** A category's label: its icon and name; an id no longer listed (a deleted one) as itself. */
export function categoryLabel(list, categoryId) {
  if (!categoryId) return t('noCategory');
  const c = list.find((x) => x.id === categoryId);
  return c ? `${c.icon ? `${c.icon} ` : ''}${c.name}` : categoryId;
}

/** A `<select>` of the categories, "(no category)" first. */
export function CategorySelect({ list, label, name, value, onChange, none = t('noCategory') }) {
  return html`<label>${label}
    <select name=${name} value=${value ?? ''} onChange=${(e) => onChange?.(e.currentTarget.value || null)}>
      <option value="">${none}</option>
      ${list.map((c) => html`<option key=${c.id} value=${c.id}>${categoryLabel(list, c.id)}</option>`)}
    </select></label>`;
}

const fieldsOf = (form) => {
  const data = new FormData(form);
  const icon = String(data.get('icon') ?? '').trim();
  return { name: String(data.get('name')).trim(), icon: icon || null, color: String(data.get('color')) };
};

function OwnCategory({ groupId, category, list, reload }) {
  const others = list.filter((c) => c.id !== category.id);
  const rename = attempt(async (event) => {
    await tally.categories.update(groupId, category.id, fieldsOf(event.target));
    say(t('categorySaved'));
    await reload();
  });
  const remove = attempt(async () => {
    if (!window.confirm(t('categoryDeleteConfirm', category.name))) return;
    await tally.categories.delete(groupId, category.id);
    say(t('categoryDeleted'));
    await reload();
  });
  const merge = attempt(async (event) => {
    const into = String(new FormData(event.target).get('into'));
    const done = await tally.categories.merge(groupId, category.id, into);
    say(t('categoryMerged', category.name, done.moved));
    await reload();
  });
  return html`<li data-category=${category.id}>
    <form class="category-edit" onSubmit=${rename} aria-label=${t('editCategory', category.name)}>
      <${Field} label=${t('categoryName')} name="name" required maxlength="40" defaultValue=${category.name} />
      <${Field} label=${t('categoryIcon')} name="icon" maxlength="16" defaultValue=${category.icon ?? ''} />
      <${Field} label=${t('categoryColor')} name="color" type="color" defaultValue=${category.color ?? '#0f766e'} />
      <div class="row">
        <button type="submit">${t('save')}</button>
        <button type="button" onClick=${remove}>${t('delete')}</button>
      </div>
    </form>
    <form class="row" onSubmit=${merge}>
      <label class="grow">${t('mergeInto', category.name)}
        <select name="into">${others.map((c) => html`<option key=${c.id} value=${c.id}>${categoryLabel(list, c.id)}</option>`)}</select></label>
      <button type="submit">${t('merge')}</button>
    </form>
  </li>`;
}

export function CategoriesScreen({ groupId }) {
  const [list, reload] = useCategories(groupId);
  const [group, setGroup] = useState();
  useEffect(() => {
    cached(`group.${groupId}`, () => tally.groups.get(groupId)).then(setGroup, () => {});
  }, [groupId]);
  const create = attempt(async (event) => {
    const category = await tally.categories.create(groupId, fieldsOf(event.target));
    event.target.reset();
    say(t('categoryAdded', category.name));
    await reload();
  });
  const own = list.filter((c) => !c.default);
  return html`<h1>${t('categories')}</h1>
    <p><a href=${`#/g/${groupId}`}>${t('backToGroup')}</a></p>
    <section aria-labelledby="own-title">
      <h2 id="own-title">${t('ownCategories')}</h2>
      ${group?.archivedAt && html`<p class="notice">${t('archivedNote')}</p>`}
      <fieldset class="bare" disabled=${Boolean(group?.archivedAt)}>
      <legend class="visually-hidden">${t('ownCategories')}</legend>
      ${own.length === 0 && html`<p class="muted">${t('noOwnCategories')}</p>`}
      <ul class="plain" id="category-list">
        ${own.map((c) => html`<${OwnCategory} key=${c.id} groupId=${groupId} category=${c} list=${list} reload=${reload} />`)}
      </ul>
      <h2>${t('newCategory')}</h2>
      <form id="category-form" onSubmit=${create}>
        <${Field} label=${t('categoryName')} name="name" required maxlength="40" />
        <${Field} label=${t('categoryIcon')} name="icon" maxlength="16" />
        <${Field} label=${t('categoryColor')} name="color" type="color" defaultValue="#0f766e" />
        <button class="primary" type="submit">${t('create')}</button>
      </form>
      </fieldset>
    </section>
    <section aria-labelledby="default-title">
      <h2 id="default-title">${t('defaultCategories')}</h2>
      <ul class="plain">${list.filter((c) => c.default).map((c) => html`<li key=${c.id}>${categoryLabel(list, c.id)}</li>`)}</ul>
    </section>`;
}
