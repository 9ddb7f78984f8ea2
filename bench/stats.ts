/** Medians and spreads of repeated measurements, and the number formats of the report. */

export interface Summary {
	median: number;
	min: number;
	max: number;
}

export function summarize(values: number[]): Summary {
	if (values.length === 0) throw new Error('No measurements to summarize');
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
	return { median, min: sorted[0], max: sorted[sorted.length - 1] };
}

/** 12,345.6 */
export function num(value: number, decimals = 0): string {
	return value.toLocaleString('en-US', {
		minimumFractionDigits: decimals,
		maximumFractionDigits: decimals,
	});
}

/** `median (min–max)` */
export function spread(s: Summary, decimals = 0, unit = ''): string {
	return `${num(s.median, decimals)}${unit} (${num(s.min, decimals)}–${num(s.max, decimals)})`;
}

export function ratio(s: Summary): string {
	return `${s.median.toFixed(2)}× (${s.min.toFixed(2)}–${s.max.toFixed(2)})`;
}

export function elapsedMs(start: bigint): number {
	return Number(process.hrtime.bigint() - start) / 1e6;
}
