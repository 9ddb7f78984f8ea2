/**
 * `npm run bench`: throughput, signing cost, memory and load time of the package; prints the
 * markdown report to stdout and writes it to BENCHMARKS.md. Progress goes to stderr.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { profileSide } from './cpuProfile';
import { measureLoadTime } from './loadTime';
import { finishFacts, machineFacts } from './machine';
import { measureMemory } from './memory';
import { takeSnapshot, useSnapshot } from './packageSnapshot';
import { PACKAGE_DIR } from './paths';
import { ReceiverProcess } from './receiver';
import type { BenchResults } from './report';
import { renderReport } from './report';
import { measureSigning } from './signing';
import { elapsedMs } from './stats';
import {
	CONCURRENCIES,
	ITEM_COUNT,
	PROFILE_RUNS,
	RUNS,
	SIGNING_BLOCK_MS,
	SIGNING_PAIRS,
} from './targets';
import { measureThroughput } from './throughput';
import { SECRET } from './workload';

function log(line: string): void {
	process.stderr.write(`${line}\n`);
}

async function main(): Promise<void> {
	if (!global.gc) log('note: run with --expose-gc (npm run bench does) for steadier numbers');
	const started = process.hrtime.bigint();
	const facts = machineFacts();
	takeSnapshot();
	await useSnapshot();
	log(`bench: ${facts.cpuModel}, ${facts.cores} cores, Node.js ${facts.node}`);
	const receiver = await ReceiverProcess.start(SECRET);
	let results: BenchResults;
	try {
		log('1/4 throughput');
		const throughput = await measureThroughput(receiver, {
			itemCount: ITEM_COUNT,
			concurrencies: CONCURRENCIES,
			runs: RUNS,
			sides: ['node', 'raw', 'bareN8n', 'engineOnly', 'rawNoKeepAlive'],
			log,
		});
		log('    CPU profiles at concurrency 1');
		const cpu = [profileSide('node', 1, PROFILE_RUNS), profileSide('bareN8n', 1, PROFILE_RUNS)];
		log('2/4 signing');
		const signing = measureSigning(SIGNING_PAIRS, SIGNING_BLOCK_MS);
		log('3/4 memory');
		const memory = await measureMemory(receiver.url, RUNS);
		log('4/4 load time');
		const load = measureLoadTime(RUNS);
		results = { facts, durationS: 0, throughput, cpu, signing, memory, load };
	} finally {
		await receiver.stop();
	}
	results.facts = finishFacts(facts);
	results.durationS = elapsedMs(started) / 1000;
	const report = renderReport(results);
	writeFileSync(join(PACKAGE_DIR, 'BENCHMARKS.md'), report);
	process.stdout.write(report);
	log(`bench: done in ${(elapsedMs(started) / 1000).toFixed(0)} s, BENCHMARKS.md written`);
}

main().catch((error: unknown) => {
	log(error instanceof Error ? (error.stack ?? error.message) : String(error));
	process.exit(1);
});
