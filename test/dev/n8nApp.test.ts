/**
 * dev/n8nApp.ts's ports: n8n's own and its task broker's are asked for one after the other, and a
 * port just closed is free again at once. CI once started n8n with both on one port ("Task
 * Broker's port … is already in use").
 */
import { describe, expect, it } from 'vitest';

import { freePort } from '../../dev/n8nApp';

describe('freePort', () => {
	it('never gives one process the same port twice', async () => {
		// Without the rule, 489 of 500 were different here: the same port came back 11 times.
		const ports: number[] = [];
		for (let i = 0; i < 500; i++) ports.push(await freePort());
		expect(new Set(ports).size).toBe(ports.length);
		expect(ports.every((port) => port > 0 && port < 65_536)).toBe(true);
	});
});
