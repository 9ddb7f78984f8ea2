import { describe, expect, it } from 'vitest';

import { checkCredential } from '../credentials/common/checkCredential';

const SECRET = 'cred_secret_4f1d';

describe('credential test: checks locally, sends nothing', () => {
	it('OK names the automation, says nothing was sent, and does not claim the secret is right', () => {
		const result = checkCredential({
			webhookUrl: 'https://svc.example.com/webhooks/cloud/abc',
			signingSecret: SECRET,
		});
		expect(result.status).toBe('OK');
		expect(result.message).toMatch(/automation "abc".*without stray whitespace; nothing was sent/);
		expect(result.message).toContain(
			'The test cannot tell whether the secret is right, as any signed request would start a run',
		);
	});

	it('warns about http://', () => {
		const result = checkCredential({
			webhookUrl: 'http://svc.local/webhooks/cloud/abc',
			signingSecret: SECRET,
		});
		expect(result).toMatchObject({ status: 'OK', message: expect.stringMatching(/not encrypted/) });
	});

	it.each([
		[
			{ webhookUrl: 'https://svc.example.com/webhooks/cloud/', signingSecret: SECRET },
			/no automation id/,
		],
		[
			{ webhookUrl: 'https://svc.example.com/webhooks/cloud/a', signingSecret: '' },
			/secret is empty/,
		],
		[
			{ webhookUrl: 'https://svc.example.com/webhooks/cloud/a', signingSecret: ` ${SECRET}\n` },
			/whitespace/,
		],
	])('fails with a message that says how to fix it', (data, problem) => {
		const result = checkCredential(data);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(problem);
		expect(result.message).not.toContain(SECRET);
	});
});
