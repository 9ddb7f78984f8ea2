/**
 * The shipped computeSignature against the leanest bare form,
 * `createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex')`, on 1 KB, 1 MB and
 * 10 MB Buffer bodies (what the credential signs). Alternating short blocks of each, so that a
 * burst of other work on the machine does not land on one side only; the ratio is per pair.
 */
import { createHmac } from 'node:crypto';

import type * as Signature from '../credentials/common/signature';
import { elapsedMs, summarize } from './stats';
import { BUILT_SIGNATURE, SECRET } from './workload';

const SIZES = { '1 KB': 1024, '1 MB': 1024 * 1024, '10 MB': 10 * 1024 * 1024 };

/** MB/s of `sign` over a body of `bytes`, signing for at least `minMs`, a fresh t each time. */
function rate(sign: (t: number) => string, bytes: number, minMs: number): number {
	let count = 0;
	let length = 0;
	const start = process.hrtime.bigint();
	let ms = 0;
	while (ms < minMs) {
		length += sign(Date.now() + count).length;
		count++;
		if (count % 8 === 0 || bytes > 65_536) ms = elapsedMs(start);
	}
	if (length !== count * 64) throw new Error('A signature was not 64 hex characters');
	return (bytes * count) / (ms / 1000) / 1e6;
}

/** MB/s (10^6 bytes per second) of each, and their ratio per pair of blocks. */
export function measureSigning(pairs: number, blockMs: number) {
	const { computeSignature } = require(BUILT_SIGNATURE) as typeof Signature;
	const unit = Buffer.from('{"sku":"SKU-12345","qty":3,"price":19.9,"note":"side door"},');
	return Object.entries(SIZES).map(([label, bytes]) => {
		const body = Buffer.alloc(bytes, unit);
		const helper = (t: number) => computeSignature(SECRET, body, t);
		const bare = (t: number) =>
			createHmac('sha256', SECRET).update(`${t}.`).update(body).digest('hex');
		rate(helper, bytes, 200);
		rate(bare, bytes, 200);
		const h: number[] = [];
		const b: number[] = [];
		for (let pair = 0; pair < pairs; pair++) {
			const first = pair % 2 === 0;
			if (first) h.push(rate(helper, bytes, blockMs));
			b.push(rate(bare, bytes, blockMs));
			if (!first) h.push(rate(helper, bytes, blockMs));
		}
		const ratio = summarize(h.map((value, i) => value / b[i]));
		return { label, helper: summarize(h), bare: summarize(b), ratio };
	});
}
