// The API's own CPU per search for made-up words (a string of letters and digits, no word of any
// language) against typical searches, on two builds side by side, taking turns.
//   BEFORE_URL=http://127.0.0.1:3301 NOW_URL=http://127.0.0.1:3302 BEFORE_PID=… NOW_PID=… API_KEY=… \
//     npx tsx bench/search/made-up-words.ts [rounds]
// Each API serves the same catalogue (the demo's 10,000); each request is distinct (a fresh word
// or a fresh exclude_ids), so the response cache answers none.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

const rounds = Number(process.argv[2] ?? 3);
const PER_KIND = 30;
const key = process.env['API_KEY']!;
const builds = [
  { name: 'before', url: process.env['BEFORE_URL']!, pid: Number(process.env['BEFORE_PID']) },
  { name: 'now', url: process.env['NOW_URL']!, pid: Number(process.env['NOW_PID']) },
];

/** The process's user and system CPU so far, in milliseconds (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
const madeUpWord = () => [...randomBytes(47)].map((b, i) => alphabet[i % 2 === 0 ? b % 26 : 26 + (b % 10)]).join('') + 's';
const nouns = ['harbour', 'glacier', 'meadow', 'lantern', 'canyon', 'orchard', 'citadel', 'volcano', 'prairie', 'lagoon', 'temple', 'tundra'];
const kinds: Record<string, () => string> = {
  'four made-up 48-character words': () => `q=${[1, 2, 3, 4].map(madeUpWord).join('+')}`,
  'two catalogue words': () => `q=sunset+forest&exclude_ids=${1 + Math.floor(Math.random() * 10_000)}`,
  'four everyday nouns': () =>
    `q=${[0, 1, 2, 3].map(() => nouns[Math.floor(Math.random() * nouns.length)]).join('+')}&exclude_ids=${1 + Math.floor(Math.random() * 10_000)}`,
};

const results: Record<string, Record<string, number[]>> = {};
for (let round = 0; round < rounds; round++) {
  for (const build of round % 2 === 0 ? builds : [...builds].reverse()) {
    for (const [kind, query] of Object.entries(kinds)) {
      const before = cpuMs(build.pid);
      for (let i = 0; i < PER_KIND; i++) {
        const res = await fetch(`${build.url}/v1/search?${query()}`, { headers: { Authorization: `Bearer ${key}` } });
        if (res.status !== 200) throw new Error(`${build.name} ${kind}: ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
      }
      ((results[kind] ??= {})[build.name] ??= []).push((cpuMs(build.pid) - before) / PER_KIND);
    }
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log('| kind | before, API CPU ms a search (rounds) | now | now / before |');
console.log('|---|--:|--:|--:|');
for (const [kind, by] of Object.entries(results)) {
  const [b, n] = [median(by['before']!), median(by['now']!)];
  console.log(
    `| ${kind} | ${b.toFixed(1)} (${by['before']!.map((x) => x.toFixed(1)).join(', ')}) | ${n.toFixed(1)} (${by['now']!.map((x) => x.toFixed(1)).join(', ')}) | ${(n / b).toFixed(2)} |`,
  );
}
