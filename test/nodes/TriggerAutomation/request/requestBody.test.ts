/**
 * Parameters → body bytes. Every bad value's message is a case of the fault matrix
 * (test/support/faultMatrix/, run by test/nodes/TriggerAutomation/faults/); here, what is sent.
 */
import { describe, expect, it } from 'vitest';

import {
	contextFromJson,
	messageText,
	serializeBody,
} from '../../../../nodes/TriggerAutomation/request/requestBody';

describe('the body: {"data":{"message","context"}}, serialized once', () => {
	it('the message is sent as typed; a number, boolean or bigint becomes text', () => {
		expect(messageText('  Summarise today\n')).toBe('  Summarise today\n');
		expect(messageText(42)).toBe('42');
		expect(messageText(false)).toBe('false');
		expect(messageText(10n ** 20n)).toBe('100000000000000000000');
	});

	it('Context JSON is an object, or text holding one; any other JSON is refused', () => {
		expect(contextFromJson('{"orderId": 42}')).toEqual({ orderId: 42 });
		const object = { orderId: 42 };
		expect(contextFromJson(object)).toBe(object);
		expect(() => contextFromJson('[1]')).toThrow(/must be a JSON object, but it is/);
		expect(() => contextFromJson('42')).toThrow(/must be a JSON object, but it is/);
	});

	it('without a context the body carries the message alone; with one, the context after it', () => {
		expect(serializeBody('Go', undefined)).toBe('{"data":{"message":"Go"}}');
		expect(serializeBody('Go', { é: '🚀', n: null })).toBe(
			'{"data":{"message":"Go","context":{"é":"🚀","n":null}}}',
		);
	});
});
