/**
 * The clients spending a quota (sending/quotaClients.ts), as one process reckons them from its
 * answers, with the counts passed in: how many, who came to a window first, and the share that
 * follows. The quota they belong to: quota.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

import { QuotaClients } from '../../../../nodes/TriggerAutomation/sending/quotaClients';
import { told } from '../../../support/quotaAnswers';

const RESET = 10_000;

/** Clients that reckoned 4 in the window before the one starting with request 10. */
function fourInTheLast(): QuotaClients {
	const clients = new QuotaClients();
	// Request 0 found 4 of 24 used; request 1, 8: the window's use grew by 4, its own by 1.
	clients.heard(0, told(20, RESET, 24), 0);
	clients.heard(1, told(16, RESET, 24), 0);
	clients.nextWindow(10);
	return clients;
}

describe('QuotaClients', () => {
	afterEach(() => vi.restoreAllMocks());

	it('a part of one request is one for the process first to the window, none for the others', () => {
		const first = fourInTheLast();
		// Its first answer in the window shows no use but its own.
		first.heard(10, told(23, RESET, 24), 0);
		// 3 clients not yet seen: half of (20 − 3) ÷ 4 is 2.125, up to 3.
		expect(first.halfShare(20)).toBe(3);
		const later = fourInTheLast();
		later.heard(10, told(20, RESET, 24), 0);
		// Three came before it, none unseen: half of 20 ÷ 4 is 2.5, down to 2.
		expect(later.halfShare(20)).toBe(2);
	});

	it('the clients not yet seen in the window are kept out of the share: their requests alone at the reset are still to come', () => {
		const clients = fourInTheLast();
		// 4 a window, 4 clients: first to it, 3 remain, each another client's.
		clients.heard(10, told(3, RESET, 4), 0);
		expect(clients.halfShare(3)).toBe(0);
	});

	it('the others seen are the most any answer of the window showed: requests of its own in flight hide none of them', () => {
		const clients = fourInTheLast();
		clients.heard(10, told(20, RESET, 24), 0);
		// 5 used at its second request's answer, 3 of its own in flight beside it: 2 + 3 counted as
		// its own, 0 others, yet 3 were seen at the first answer. None unseen: half of 8 ÷ 4, 1.
		clients.heard(11, told(19, RESET, 24), 3);
		expect(clients.halfShare(8)).toBe(1);
	});

	it("requests in flight beside its first answer do not make a process first: they may be the last window's", () => {
		const clients = fourInTheLast();
		// 3 used: two requests of its own in flight (started before the window turned) and one more.
		clients.heard(10, told(21, RESET, 24), 2);
		// Not first, no other seen yet: half of (20 − 3) ÷ 4 is 2.125, down to 2.
		expect(clients.halfShare(20)).toBe(2);
	});

	it('answers that do not tell the limit cannot tell who came first: a part of one request is one as often as that part', () => {
		const clients = new QuotaClients();
		clients.others();
		// 2 clients: half of 3 ÷ 2 is 0.75.
		vi.spyOn(Math, 'random').mockReturnValue(0.74);
		expect(clients.halfShare(3)).toBe(1);
		vi.spyOn(Math, 'random').mockReturnValue(0.75);
		expect(clients.halfShare(3)).toBe(0);
	});
});
