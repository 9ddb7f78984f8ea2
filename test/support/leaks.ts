/**
 * The secret-leak check: neither the signing secret nor any signature that went over the wire may
 * appear in what a run produced (items, errors, error descriptions) or in what was logged.
 */
import type { IRun } from 'n8n-workflow';
import { expect } from 'vitest';

import type { ReceivedRequest } from './receiver';

function serialise(value: unknown): string {
	const seen = new WeakSet<object>();
	return JSON.stringify(value, (_key, v: unknown) => {
		if (typeof v === 'bigint') return v.toString();
		if (typeof v === 'object' && v !== null) {
			if (seen.has(v)) return '[circular]';
			seen.add(v);
			if (v instanceof Error) {
				// Errors keep message, description, cause… in non-enumerable or own props: take all.
				const all: Record<string, unknown> = {};
				for (const name of Object.getOwnPropertyNames(v)) all[name] = (v as never)[name];
				return all;
			}
		}
		return v;
	});
}

export function expectNoLeak(
	secret: string,
	produced: { run?: IRun; logged?: string[]; extra?: unknown[] },
	requests: ReceivedRequest[] = [],
): void {
	const text = serialise([produced.run, produced.extra ?? []]) + (produced.logged ?? []).join('\n');
	expect(text.includes(secret), 'the signing secret appears in the output').toBe(false);
	for (const request of requests) {
		const header = request.headers['x-service-signature'];
		const signature = typeof header === 'string' ? header.split('v1=')[1] : undefined;
		if (signature) {
			expect(text.includes(signature), 'a sent signature appears in the output').toBe(false);
		}
	}
}
