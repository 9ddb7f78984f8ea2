/**
 * Measurement 2: the package's computeSignature against the leanest bare node:crypto HMAC,
 * `createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex')` (no copy of the body),
 * on 1 KB, 1 MB and 10 MB bodies, as text and as the Buffer bodies the credential signs. What the
 * ratio shows is the helper's own overhead (argument checks, the call).
 */
import { createHmac } from 'node:crypto';

import type * as Signature from '../credentials/common/signature';
import { BUILT_SIGNATURE } from './paths';
import type { Summary } from './stats';
import { elapsedMs, summarize } from './stats';
import { SECRET } from './workload';

export type BodyKind = 'text' | 'Buffer';

export interface SigningRow {
	label: string;
	bytes: number;
	kind: BodyKind;
	/** MB/s (10^6 bytes per second) */
	helper: Summary;
	bare: Summary;
	/** helper throughput / bare throughput, per paired run */
	ratio: Summary;
}

export const SIGNING_SIZES: Array<{ label: string; bytes: number }> = [
	{ label: '1 KB', bytes: 1024 },
	{ label: '1 MB', bytes: 1024 * 1024 },
	{ label: '10 MB', bytes: 10 * 1024 * 1024 },
];

/** JSON-like ASCII text of exactly `bytes` bytes. */
function bodyText(bytes: number): string {
	const unit = '{"sku":"SKU-12345","qty":3,"price":19.9,"note":"side door"},';
	const lines = unit.repeat(Math.ceil(bytes / unit.length));
	const text = `{"data":{"message":"m","context":{"lines":[${lines}`;
	return text.slice(0, bytes);
}

type Signer = (t: number) => string;

/** MB/s of `sign` over a body of `bytes`, run for at least `minMs`. */
function throughput(sign: Signer, bytes: number, minMs: number): number {
	let sink = 0;
	let count = 0;
	const start = process.hrtime.bigint();
	let ms = 0;
	do {
		// A fresh timestamp per signature, as in real use.
		sink += sign(Date.now() + count).length;
		count++;
		if ((count & 7) === 0 || bytes > 64 * 1024) ms = elapsedMs(start);
	} while (ms < minMs);
	if (sink === 0) throw new Error('unreachable');
	return (bytes * count) / (ms / 1000) / 1e6;
}

function signers(kind: BodyKind, text: string): { helper: Signer; bare: Signer } {
	// The shipped build of the helper, from the bench's snapshot of dist/.
	const { computeSignature } = require(BUILT_SIGNATURE) as typeof Signature;
	const body = kind === 'text' ? text : Buffer.from(text, 'utf8');
	return {
		helper: (t) => computeSignature(SECRET, body, t),
		bare: (t) => createHmac('sha256', SECRET).update(`${t}.`).update(body).digest('hex'),
	};
}

/**
 * `pairs` alternating blocks of helper and bare, each signing for at least `blockMs`: short
 * alternating blocks keep a burst of other work on the machine from landing on one side only.
 */
export function measureSigning(pairs: number, blockMs: number): SigningRow[] {
	const rows: SigningRow[] = [];
	for (const kind of ['text', 'Buffer'] as BodyKind[]) {
		for (const { label, bytes } of SIGNING_SIZES) {
			const { helper, bare } = signers(kind, bodyText(bytes));
			// Warm-up: both paths optimized before anything is timed.
			throughput(helper, bytes, blockMs * 2);
			throughput(bare, bytes, blockMs * 2);
			global.gc?.();
			const helperRuns: number[] = [];
			const bareRuns: number[] = [];
			for (let pair = 0; pair < pairs; pair++) {
				if (pair % 2 === 0) {
					helperRuns.push(throughput(helper, bytes, blockMs));
					bareRuns.push(throughput(bare, bytes, blockMs));
				} else {
					bareRuns.push(throughput(bare, bytes, blockMs));
					helperRuns.push(throughput(helper, bytes, blockMs));
				}
			}
			rows.push({
				label,
				bytes,
				kind,
				helper: summarize(helperRuns),
				bare: summarize(bareRuns),
				ratio: summarize(helperRuns.map((value, pair) => value / bareRuns[pair])),
			});
		}
	}
	return rows;
}
