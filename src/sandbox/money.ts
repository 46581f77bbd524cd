// Decimal-string arithmetic in cents, so totals never drift by floating point.

export function toCents(value: unknown): number {
  if (typeof value === 'number') return Math.round(value * 100);
  if (typeof value !== 'string' || value.trim() === '') return 0;
  const match = /^(-?)(\d*)(?:\.(\d{0,2})\d*)?$/.exec(value.trim());
  if (!match) return 0;
  const [, sign, whole = '', fraction = ''] = match;
  const cents = Number(whole || '0') * 100 + Number(fraction.padEnd(2, '0'));
  return sign ? -cents : cents;
}

export function fromCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export function sumCents(values: unknown[]): number {
  return values.reduce<number>((total, value) => total + toCents(value), 0);
}
