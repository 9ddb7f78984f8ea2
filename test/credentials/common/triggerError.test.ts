import { describe, expect, it } from 'vitest';

import { TriggerError } from '../../../credentials/common/triggerError';
import { signRequest } from '../../../credentials/common/signRequest';
import { failureFromError } from '../../../nodes/TriggerAutomation/answer/noAnswer';

const WEBHOOK_URL = 'https://svc.example.com/webhooks/cloud/auto-7';
const REQUEST = { url: WEBHOOK_URL, automationId: 'auto-7', bodyBytes: 2, timeoutMs: 30_000 };

function refusal(): TriggerError {
	try {
		signRequest(
			{ webhookUrl: WEBHOOK_URL, signingSecret: 'whsec_1' },
			{ url: `${WEBHOOK_URL}-other`, body: {} },
		);
	} catch (error) {
		return error as TriggerError;
	}
	throw new Error('signRequest signed a request to another URL');
}

describe('a credential refusal: the credential will not sign, so nothing is sent', () => {
	it("is the package's one error, a TriggerError with code bad_input, whose message says how to fix it", () => {
		const error = refusal();
		expect(error).toBeInstanceOf(TriggerError);
		expect(error.name).toBe('TriggerError');
		expect(error.failure).toEqual({ code: 'bad_input', message: error.message });
		expect(error.message).toMatch(/Set the request URL to the credential's webhook URL/);
	});

	it('wrapped by n8n, it is still found: the item fails as bad input with its message, not as a network failure', () => {
		const error = refusal();
		const failure = failureFromError(new Error('Request failed', { cause: error }), REQUEST);
		expect(failure).toEqual({ code: 'bad_input', message: error.message });
	});
});
