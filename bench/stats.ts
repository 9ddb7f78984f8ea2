/** Median and spread of repeated measurements, and the number formats used in the report. */

export interface Summary {
	median: number;
	min: number;
	max: number;
	runs: number;
}

export function summarize(values: number[]): Summary {
	if (values.length === 0) throw new Error('No measurements to summarize');
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	const median =
		sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
	return { median, min: sorted[0], max: sorted[sorted.length - 1], runs: sorted.length };
}

/** A number with a fixed count of decimals and thousands separators: 12,345.6 */
export function num(value: number, decimals = 0): string {
	return value.toLocaleString('en-US', {
		minimumFractionDigits: decimals,
		maximumFractionDigits: decimals,
	});
}

/** `median (min–max)` */
export function spread(summary: Summary, decimals = 0, unit = ''): string {
	const { median, min, max } = summary;
	return `${num(median, decimals)}${unit} (${num(min, decimals)}–${num(max, decimals)})`;
}

export function ratio(value: number): string {
	return `${value.toFixed(2)}×`;
}

export function mebibytes(bytes: number, decimals = 1): string {
	return `${num(bytes / 2 ** 20, decimals)} MiB`;
}

export function verdict(met: boolean): string {
	return met ? 'met' : '**missed**';
}

/** Milliseconds since `start` (from process.hrtime.bigint()). */
export function elapsedMs(start: bigint): number {
	return Number(process.hrtime.bigint() - start) / 1e6;
}
