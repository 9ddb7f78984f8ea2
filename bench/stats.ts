/** Medians and spreads of repeated measurements, and the number formats of the report. */

/** Median, min, max, and the lower and upper quartile (q1, q3: nearest rank). */
export function summarize(values: number[]) {
	if (values.length === 0) throw new Error('No measurements to summarize');
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
	const rank = (q: number) => sorted[Math.round(q * (sorted.length - 1))];
	return { median, min: sorted[0], max: sorted[sorted.length - 1], q1: rank(0.25), q3: rank(0.75) };
}
export type Summary = ReturnType<typeof summarize>;

/** 12,345.6 */
export function num(value: number, decimals = 0): string {
	const digits = { minimumFractionDigits: decimals, maximumFractionDigits: decimals };
	return value.toLocaleString('en-US', digits);
}

/** `median (min–max)` */
export function spread(s: Summary, decimals = 0, unit = ''): string {
	return `${num(s.median, decimals)}${unit} (${num(s.min, decimals)}–${num(s.max, decimals)})`;
}

export function ratio(s: Summary): string {
	return `${s.median.toFixed(2)}× (${s.min.toFixed(2)}–${s.max.toFixed(2)})`;
}

/** `median (middle half: q1–q3)`, for many short samples whose extremes are noise. */
export function ratioMiddle(s: Summary): string {
	return `${s.median.toFixed(2)}× (middle half ${s.q1.toFixed(2)}–${s.q3.toFixed(2)})`;
}

export function elapsedMs(start: bigint): number {
	return Number(process.hrtime.bigint() - start) / 1e6;
}
