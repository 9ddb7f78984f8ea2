/**
 * n8n's editor in Debian's headless Chromium, driven by playwright-core. The browser reaches only
 * 127.0.0.1: every other request is refused and counted, so a test can say none was made.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { Browser, Locator, Page } from 'playwright-core';
import { chromium, selectors } from 'playwright-core';

import type { N8nInstance } from '../../dev/n8nApp';
import { OWNER } from '../../dev/n8nApp';
import { PACKAGE_DIR } from '../../dev/packageDir';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS_DIR = join(PACKAGE_DIR, 'test-results', 'e2e-screenshots');

// n8n marks its elements with data-test-id.
selectors.setTestIdAttribute('data-test-id');

export interface Editor {
	browser: Browser;
	page: Page;
	/** Requests to any host but 127.0.0.1, refused. */
	outsideRequests: string[];
	/** The page, or only the rectangle around `areas` (a small picture of what a test shows). */
	screenshot(name: string, ...areas: Locator[]): Promise<string>;
	close(): Promise<void>;
}

export async function openEditor(n8n: N8nInstance): Promise<Editor> {
	const browser = await chromium.launch({
		executablePath: CHROMIUM,
		// As root in a container; no GPU; and none of Chromium's own calls home.
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
			'--no-first-run',
		],
	});
	const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
	const outsideRequests: string[] = [];
	await context.route('**/*', async (route) => {
		const url = new URL(route.request().url());
		if (url.hostname === '127.0.0.1' || url.protocol === 'data:') return await route.continue();
		outsideRequests.push(url.origin + url.pathname);
		return await route.abort('blockedbyclient');
	});
	const page = await context.newPage();
	const dir = join(SCREENSHOTS_DIR, n8n.app.id);
	mkdirSync(dir, { recursive: true });
	return {
		browser,
		page,
		outsideRequests,
		async screenshot(name, ...areas) {
			const path = join(dir, `${name}.png`);
			await page.screenshot({ path, clip: areas.length > 0 ? await around(areas) : undefined });
			return path;
		},
		close: async () => await browser.close(),
	};
}

/** The smallest rectangle that holds every one of `areas`, with a margin. */
async function around(areas: Locator[], margin = 12) {
	const boxes = await Promise.all(areas.map(async (area) => (await area.boundingBox())!));
	const x = Math.max(0, Math.min(...boxes.map((box) => box.x)) - margin);
	const y = Math.max(0, Math.min(...boxes.map((box) => box.y)) - margin);
	const right = Math.max(...boxes.map((box) => box.x + box.width)) + margin;
	const bottom = Math.max(...boxes.map((box) => box.y + box.height)) + margin;
	return { x, y, width: right - x, height: bottom - y };
}

export async function signIn(page: Page, n8n: N8nInstance): Promise<void> {
	await page.goto(`${n8n.baseUrl}/signin`);
	// 2.x names the field emailOrLdapLoginId, 1.x email.
	const email = page.getByTestId('emailOrLdapLoginId').or(page.getByTestId('email'));
	await email.locator('input').fill(OWNER.email);
	await page.getByTestId('password').locator('input').fill(OWNER.password);
	await page.getByTestId('form-submit-button').click();
	await page.waitForURL((url) => !url.pathname.includes('signin'));
}

export async function openWorkflow(page: Page, n8n: N8nInstance, id: string): Promise<void> {
	await page.goto(`${n8n.baseUrl}/workflow/${id}`);
	await page.getByTestId('canvas-node').first().waitFor();
}

/**
 * Types a search into the open nodes panel as a user would and returns the names it then lists,
 * once `expected` is among them or, failing that, after the search has had time to settle.
 */
export async function searchNodesPanel(
	page: Page,
	text: string,
	expected: string,
): Promise<string[]> {
	const search = page.getByTestId('node-creator-search-bar');
	await search.fill('');
	await search.pressSequentially(text);
	const names = page.getByTestId('node-creator-item-name');
	await names
		.getByText(expected, { exact: true })
		.first()
		.waitFor({ timeout: 10_000 })
		.catch(() => undefined);
	return await names.allInnerTexts();
}

/** Opens a saved credential from the Credentials list; opening it runs its test. */
export async function openCredential(page: Page, n8n: N8nInstance, name: string): Promise<void> {
	await page.goto(`${n8n.baseUrl}/home/credentials`);
	await page.getByTestId('resources-list-item').filter({ hasText: name }).click();
}

/**
 * After a failed credential test, n8n says "Couldn't connect with these settings"; the credential's
 * reason is under More details. Resolves to the text shown there.
 */
export async function credentialTestFailure(page: Page, reason: RegExp): Promise<string> {
	await page.getByText('More details').locator('visible=true').first().click();
	const shown = page.getByText(reason).locator('visible=true').first();
	await shown.waitFor();
	return await shown.innerText();
}

/** Opens a node's panel (NDV) from the canvas, as a double click does. */
export async function openNode(page: Page, name: string): Promise<void> {
	await page.getByTestId('canvas-node').filter({ hasText: name }).first().dblclick();
	await page.getByTestId('ndv').waitFor();
}

/** Picks an option of a node parameter's dropdown by its label. */
export async function chooseOption(page: Page, parameter: string, label: string): Promise<void> {
	await page.getByTestId(`parameter-input-${parameter}`).click();
	await page
		.getByTestId('parameter-input-item')
		.filter({ has: page.getByText(label, { exact: true }) })
		.locator('visible=true')
		.first()
		.click();
}

/** Back to the canvas from a node's panel (2.x: its close button, 1.x: Back to canvas). */
export async function closeNode(page: Page): Promise<void> {
	await page.getByTestId('ndv-close-button').or(page.getByTestId('back-to-canvas')).first().click();
	await page.getByTestId('ndv').waitFor({ state: 'hidden' });
}

/** The open workflow's Executions tab: the list of its executions beside the selected one. */
export async function openExecutions(page: Page): Promise<void> {
	await page.getByTestId('radio-button-executions').click();
	await page.getByTestId('executions-sidebar').waitFor();
}

/**
 * In the Executions tab, selects the execution in the list and uses the Retry button of its preview
 * with the original workflow (n8n 1.x and 2.x label it alike).
 */
export async function retryExecution(page: Page, executionId: string): Promise<void> {
	await page.getByTestId(`execution-details-${executionId}`).getByRole('link').first().click();
	await page.waitForURL((url) => url.pathname.endsWith(`/executions/${executionId}`));
	await page.getByTestId('execution-preview-retry-button').click();
	await page
		.getByRole('menuitem', { name: 'Retry with original workflow' })
		.locator('visible=true')
		.click();
}

/** Opens the nodes panel from a workflow's canvas, with its "+" button, as a user adds a node. */
export async function openNodesPanel(page: Page, n8n: N8nInstance, workflowId: string) {
	await openWorkflow(page, n8n, workflowId);
	await page.getByTestId('node-creator-plus-button').click();
}

/**
 * In an open HTTP Request node set to Predefined Credential Type: the credential type it shows, and
 * whether typing the start of `label` into that field lists `label` among its options.
 */
export async function predefinedCredentialType(
	page: Page,
	label: string,
): Promise<{ shown: string; offered: boolean }> {
	const credentialType = page.getByTestId('credential-select').locator('input');
	await credentialType.waitFor();
	// The field fills in once the editor has loaded the credential types.
	const deadline = Date.now() + 10_000;
	let shown = await credentialType.inputValue();
	while (shown !== label && Date.now() < deadline) {
		await page.waitForTimeout(200);
		shown = await credentialType.inputValue();
	}
	await credentialType.click();
	await credentialType.pressSequentially(label.split(' ').slice(0, -1).join(' '));
	const offered = await page
		.getByRole('option', { name: label })
		.first()
		.waitFor({ timeout: 10_000 })
		.then(() => true)
		.catch(() => false);
	return { shown, offered };
}
