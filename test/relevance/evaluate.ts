import { readFileSync } from 'node:fs';
import type { Wallpaper } from '../../src/wallpapers/wallpaper.js';

export interface Judgment {
  kind: string;
  q: string;
  /** Regular expressions that must all match the title, description or category. */
  all: string[];
  /** Instead, the ids of the wallpapers graded 2 and 1 (a judge who graded each wallpaper); the rest are 0. */
  grades?: { '2': number[]; '1': number[] };
  /** Regular expressions none of which may match. */
  none?: string[];
  /** The resolution a relevant wallpaper must have, where the query names a size. */
  resolution?: string;
  note?: string;
}

export interface Judgments {
  k: number;
  queries: Judgment[];
}

export interface SearchAnswer {
  total: number;
  /** The first page of hits, best first. */
  hits: readonly Wallpaper[];
}

export interface QueryScore {
  kind: string;
  q: string;
  /** Relevant wallpapers in the whole catalogue. */
  relevant: number;
  total: number;
  /** min(k, relevant): how many top hits precision is counted over. */
  k: number;
  precision: number;
  ndcg: number;
  /** The catalogue holds a relevant wallpaper but the search returned nothing. */
  missed: boolean;
}

export interface RelevanceReport {
  queries: QueryScore[];
  meanPrecision: number;
  meanNdcg: number;
  missed: string[];
}

export function readJudgments(file = new URL('./judgments.json', import.meta.url)): Judgments {
  return JSON.parse(readFileSync(file, 'utf8')) as Judgments;
}

/** 0 not relevant, 1 relevant (title, description or category), 2 relevant by its title alone. */
function grader(judgment: Judgment): (w: Wallpaper) => number {
  if (judgment.grades !== undefined) {
    const graded = new Map([...judgment.grades['1'].map((id) => [id, 1] as const), ...judgment.grades['2'].map((id) => [id, 2] as const)]);
    return (w) => graded.get(w.id) ?? 0;
  }
  const all = judgment.all.map((p) => new RegExp(p, 'i'));
  const none = (judgment.none ?? []).map((p) => new RegExp(p, 'i'));
  return (w) => {
    const text = `${w.title} ${w.description} ${w.category}`;
    if (!all.every((r) => r.test(text)) || none.some((r) => r.test(text))) return 0;
    if (judgment.resolution !== undefined && w.resolution !== judgment.resolution) return 0;
    return all.every((r) => r.test(w.title)) ? 2 : 1;
  };
}

const dcg = (gains: number[]) => gains.reduce((sum, g, i) => sum + (2 ** g - 1) / Math.log2(i + 2), 0);

/**
 * Scores each judged query: precision over the top min(k, relevant) hits, nDCG@10 against the
 * ideal order of the whole catalogue, and whether a query with relevant wallpapers returned none.
 */
export async function evaluate(
  judgments: Judgments,
  catalogue: readonly Wallpaper[],
  search: (q: string) => Promise<SearchAnswer>,
): Promise<RelevanceReport> {
  const queries: QueryScore[] = [];
  for (const judgment of judgments.queries) {
    const grade = grader(judgment);
    const gradesInCatalogue = catalogue.map(grade).filter((g) => g > 0);
    const relevant = gradesInCatalogue.length;
    const answer = await search(judgment.q);
    const k = Math.min(judgments.k, relevant);
    const gains = answer.hits.slice(0, 10).map(grade);
    let precision: number;
    let ndcg: number;
    if (relevant === 0) {
      precision = ndcg = answer.total === 0 ? 1 : 0;
    } else {
      precision = gains.slice(0, k).filter((g) => g > 0).length / k;
      const ideal = dcg(gradesInCatalogue.sort((a, b) => b - a).slice(0, 10));
      ndcg = dcg(gains) / ideal;
    }
    queries.push({
      kind: judgment.kind,
      q: judgment.q,
      relevant,
      total: answer.total,
      k,
      precision,
      ndcg,
      missed: relevant > 0 && answer.total === 0,
    });
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return {
    queries,
    meanPrecision: mean(queries.map((s) => s.precision)),
    meanNdcg: mean(queries.map((s) => s.ndcg)),
    missed: queries.filter((s) => s.missed).map((s) => s.q),
  };
}

/** The report as a Markdown table, one row per query, then the means. */
export function markdownReport(report: RelevanceReport, k: number): string {
  const rows = report.queries.map(
    (s) =>
      `| ${s.kind} | \`${s.q.replace(/\|/g, '\\|')}\` | ${s.relevant} | ${s.total} | ${s.precision.toFixed(2)} (@${s.k || k}) | ${s.ndcg.toFixed(2)} |${s.missed ? ' **missed** |' : ' |'}`,
  );
  return [
    '| kind | query | relevant in catalogue | returned | precision@k | nDCG@10 | |',
    '|---|---|--:|--:|--:|--:|---|',
    ...rows,
    '',
    `Mean precision@k: **${report.meanPrecision.toFixed(3)}**; mean nDCG@10: **${report.meanNdcg.toFixed(3)}**; queries that returned nothing although the catalogue holds a match: ${report.missed.length === 0 ? 'none' : report.missed.map((q) => `\`${q}\``).join(', ')}.`,
  ].join('\n');
}
