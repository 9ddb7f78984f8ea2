import { describe, expect, it } from 'vitest';

import { parseWebhookUrl } from '../../../credentials/common/webhookUrl';

describe('webhook URL: {base_url}/webhooks/cloud/<automation_id> (spec §2)', () => {
	it.each([
		[
			'https://svc.example.com/webhooks/cloud/abc-123',
			'abc-123',
			'https://svc.example.com/webhooks/cloud/abc-123',
			'https://svc.example.com',
		],
		[
			'https://svc.example.com/api/v1/webhooks/cloud/A.b_c~d',
			'A.b_c~d',
			'https://svc.example.com/api/v1/webhooks/cloud/A.b_c~d',
			'https://svc.example.com/api/v1',
		],
		[
			'http://127.0.0.1:8080/webhooks/cloud/x',
			'x',
			'http://127.0.0.1:8080/webhooks/cloud/x',
			'http://127.0.0.1:8080',
		],
		[
			'  https://SVC.example.com/webhooks/cloud/abc/  ',
			'abc',
			'https://svc.example.com/webhooks/cloud/abc',
			'https://svc.example.com',
		],
	])(
		'accepts %s: the automation, its URL and its service ({base_url})',
		(raw, automationId, url, serviceUrl) => {
			expect(parseWebhookUrl(raw)).toEqual({ automationId, url, serviceUrl });
		},
	);

	it.each([
		['', /empty/],
		['not a url', /not a valid URL/],
		['ftp://svc.example.com/webhooks/cloud/abc', /must start with https:\/\//],
		['https://user:pw@svc.example.com/webhooks/cloud/abc', /user name or password/],
		['https://svc.example.com/webhooks/cloud/abc?x=1', /query string/],
		['https://svc.example.com/webhooks/cloud/abc#frag', /fragment/],
		['https://svc.example.com/hooks/abc', /does not contain \/webhooks\/cloud\//],
		['https://svc.example.com/webhooks/cloud/', /no automation id/],
		['https://svc.example.com/webhooks/cloud', /no automation id/],
		['https://svc.example.com/webhooks/cloud/abc/runs', /continues after the automation id/],
		['https://svc.example.com/webhooks/cloud/a%2Fb', /characters an id cannot have/],
	])('rejects %s, saying what is wrong and where to copy the URL', (raw, problem) => {
		expect(() => parseWebhookUrl(raw)).toThrow(problem);
		expect(() => parseWebhookUrl(raw)).toThrow(/Webhook details/);
	});
});
