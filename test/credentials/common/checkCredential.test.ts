import { describe, expect, it } from 'vitest';

import { credentialProblem } from '../../../credentials/common/checkCredential';

const SECRET = 'cred_secret_4f1d';

describe('credential test: checks locally, sends nothing', () => {
	it('a well-formed URL and a clean secret have no problem, over https or http', () => {
		for (const webhookUrl of [
			'https://svc.example.com/webhooks/cloud/abc',
			'http://svc.local/webhooks/cloud/abc',
		]) {
			expect(credentialProblem({ webhookUrl, signingSecret: SECRET })).toBeUndefined();
		}
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
	])(
		'a problem is said in a message that says how to fix it, without the secret',
		(data, problem) => {
			const message = credentialProblem(data);
			expect(message).toMatch(problem);
			expect(message).not.toContain(SECRET);
		},
	);
});
