import { askText } from '../../src/cli/commands/ask';
import type { AskResult } from '../../src/pipeline/ask-types';

function result(overrides: Partial<AskResult>): AskResult {
  return {
    question: 'Does emicizumab reduce spasticity in multiple sclerosis?',
    route: 'content',
    routeReasons: ['rules said content'],
    abstained: true,
    abstentionReason: 'The graph does not connect the question’s concepts.',
    answer: '',
    sourceNote: null,
    bibliography: [],
    sentences: [],
    sufficiency: { score: 80, band: 'STRONG', dimensions: [], missingTerms: [], overruled: null },
    gaps: [],
    contradictions: [],
    externalSearches: [],
    trace: [],
    cost: { llmCalls: 0, promptTokens: 0, completionTokens: 0, estimatedUsd: 0, apiCalls: {} },
    ...overrides,
  } as unknown as AskResult;
}

describe('citegraph ask as text', () => {
  it('says why an abstention sits beside a STRONG band, as the page does', () => {
    const overruled =
      'abstained although the evidence scored STRONG: the graph does not connect the question’s concepts';
    const text = askText(result({ sufficiency: { ...result({}).sufficiency, overruled } }));
    expect(text).toContain('ABSTAINED — The graph does not connect');
    expect(text).toContain('evidence: 80/100 STRONG');
    expect(text).toContain(`decision: ${overruled}`);
    // Band and decision agreeing need no such line.
    expect(askText(result({}))).not.toContain('decision:');
  });
});
