import fc from 'fast-check';
import { join, raw, type Sql, sql } from './sql';

describe('sql: fragments that carry their values', () => {
  it('numbers the placeholders in the order the values appear', () => {
    const q = sql`select * from t where a = ${1} and b = ${'two'}`;
    expect(q.text).toBe('select * from t where a = $1 and b = $2');
    expect(q.values).toEqual([1, 'two']);
  });

  it('takes a nested fragment with its values, wherever it sits', () => {
    const inner = sql`x = ${'inner'}`;
    const q = sql`select ${0}, (${inner}) where y = ${2}`;
    expect(q.text).toBe('select $1, (x = $2) where y = $3');
    expect(q.values).toEqual([0, 'inner', 2]);
  });

  it('keeps raw text as it is and joins fragments with a separator', () => {
    const q = sql`with ${join([sql`a as (${1})`, sql`b as (${2})`, raw('c as (select 1)')])} select ${3}`;
    expect(q.text).toBe('with a as ($1), b as ($2), c as (select 1) select $3');
    expect(q.values).toEqual([1, 2, 3]);
    expect(join([]).text).toBe('');
  });

  it('repeats a value once per place it is used (no placeholder is shared)', () => {
    const id = 'grp_1';
    const q = sql`${id} ${id}`;
    expect(q.text).toBe('$1 $2');
    expect(q.values).toEqual([id, id]);
  });

  it('always has exactly as many placeholders as values, however fragments nest', () => {
    type Tree = { values: number[]; children: Tree[] };
    const build = (tree: Tree): Sql => {
      const parts = [
        ...tree.values.map((v) => sql`v(${v})`),
        ...tree.children.map((c) => sql`[${build(c)}]`),
      ];
      return join(parts, ' ');
    };
    const { tree } = fc.letrec((tie) => ({
      tree: fc.record({
        values: fc.array(fc.integer(), { maxLength: 3 }),
        children: fc.oneof(
          { maxDepth: 3 },
          fc.constant([] as Tree[]),
          fc.array(tie('tree') as fc.Arbitrary<Tree>, { maxLength: 2 }),
        ),
      }),
    }));
    fc.assert(
      fc.property(tree, (t) => {
        const q = build(t);
        const numbers = [...q.text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1]));
        expect(numbers).toEqual(q.values.map((_v, i) => i + 1));
        // Each placeholder stands where its own value was written.
        const inlined = q.text.replace(/\$(\d+)/g, (_m, n: string) => String(q.values[Number(n) - 1]));
        expect(inlined).not.toContain('$');
      }),
    );
  });
});
