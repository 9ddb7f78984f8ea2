/**
 * Manual profiling entry (not part of `npm run bench`): runs one throughput side for a while so a
 * CPU profile shows where its time goes. After `npm run bench` (or `tsc -p tsconfig.dev.json`):
 *
 *   node --cpu-prof --cpu-prof-dir=.dev-dist/profiles .dev-dist/bench/profile.js node 1 5
 *
 * arguments: side (node | raw | bareN8n | engineOnly | rawNoKeepAlive), concurrency, runs.
 */
import { useSnapshot } from './packageSnapshot';
import { ReceiverProcess } from './receiver';
import { ITEM_COUNT } from './targets';
import type { SideName } from './throughput';
import { measureThroughput } from './throughput';
import { SECRET } from './workload';

async function main(): Promise<void> {
	const [side = 'node', concurrency = '1', runs = '5'] = process.argv.slice(2);
	await useSnapshot();
	const receiver = await ReceiverProcess.start(SECRET);
	try {
		await measureThroughput(receiver, {
			itemCount: ITEM_COUNT,
			concurrencies: [Number(concurrency)],
			runs: Number(runs),
			sides: [side as SideName],
			log: (line) => console.log(line),
		});
	} finally {
		await receiver.stop();
	}
}

void main();
