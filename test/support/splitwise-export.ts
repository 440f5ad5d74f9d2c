/**
 * Splitwise exports of any size, as Splitwise writes them (a header, one row per expense or
 * payment, a blank line, the "Total balance" row), for the import tests and the benchmark
 * (infra/bench/import.ts). Deterministic: the same `rows` give the same file.
 */
export type GeneratedExport = {
  csv: string;
  people: string[];
  /** Each person's net over all rows, in cents (the total row). */
  totals: number[];
};

const PEOPLE = ['Ada Lovelace', 'Bob Smith', 'Carol Jones'];

const euros = (cents: number): string => {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};

export function splitwiseExport(rows: number, options: { tag?: string } = {}): GeneratedExport {
  const totals = PEOPLE.map(() => 0);
  const lines = [`Date,Description,Category,Cost,Currency,${PEOPLE.join(',')}`];
  let state = 12345;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state;
  };
  for (let i = 0; i < rows; i++) {
    const day = `2024-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`;
    const payer = next() % 3;
    let nets: number[];
    let text: string;
    if (i % 10 === 9) {
      // A payment: the payer settles with the next person.
      const to = (payer + 1) % 3;
      const amount = 100 + (next() % 5000);
      nets = PEOPLE.map((_, p) => (p === payer ? amount : p === to ? -amount : 0));
      text = `${day},${PEOPLE[payer]} paid ${PEOPLE[to]},Payment,${euros(amount)},EUR`;
    } else {
      // Split equally three ways, the payer's remainder cent their own (as Splitwise does).
      const cost = 300 + (next() % 20000);
      const share = Math.floor(cost / 3);
      const owed = PEOPLE.map((_, p) => (p === payer ? cost - 2 * share : share));
      nets = owed.map((o, p) => (p === payer ? cost - o : -o));
      text = `${day},"Expense ${options.tag ?? ''}${i + 1}, shared",General,${euros(cost)},EUR`;
    }
    nets.forEach((n, p) => {
      totals[p]! += n;
    });
    lines.push(`${text},${nets.map(euros).join(',')}`);
  }
  lines.push('', `2025-01-01,Total balance, , ,EUR,${totals.map(euros).join(',')}`);
  return { csv: `${lines.join('\r\n')}\r\n`, people: PEOPLE, totals };
}
