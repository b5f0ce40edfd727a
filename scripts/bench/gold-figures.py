#!/usr/bin/env python3
"""Gold figures of the ask v3 questions, recounted from the raw SYNERGY records (../shared/data/synergy/works).

Independent of citegraph's code on purpose: it reads the OpenAlex records as they are, with Python's own parsing, and
computes each question's key figure from its gold plan (data/questions/ask-v3.jsonl, field `gold`). The figure is
written back into the file (`figure`), with what an answer must match:

- a topic is the review's candidate set (the records its search found); years and a venue filter it; an open window
  ends at the last year those records cover (`years` is rewritten with that end);
- counts accept half to one and a half times the gold count (a topic set is a definition, not a fact);
- rankings give their top items; an answer is right when its first item is one of them;
- people are the human behind every record of one name (first given name and surname, diacritics and initials
  ignored), so split author records count together;
- internal citations are citations from the SYNERGY records; global ones are OpenAlex's cited_by_count.

  python3 scripts/bench/gold-figures.py [--check] [FILE]   (--check: fail when the file's figures differ from a recount;
                                                   FILE: data/questions/ask-v3.jsonl unless named)
"""
import ast
import collections
import glob
import gzip
import json
import os
import sys
import unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, '..', 'shared', 'data', 'synergy', 'works')
QUESTIONS = os.path.join(ROOT, 'data', 'questions', 'ask-v3.jsonl')


def literal(value):
    if value is None or value == 'None':
        return None
    if isinstance(value, str):
        try:
            return ast.literal_eval(value)
        except (ValueError, SyntaxError):
            return value
    return value


def short(url):
    return url.rsplit('/', 1)[-1] if url else None


def person_key(name):
    text = unicodedata.normalize('NFKD', name.replace('ø', 'o').replace('Ø', 'O'))
    text = ''.join(c for c in text if not unicodedata.combining(c)).lower()
    tokens = [t for t in text.replace('.', ' ').replace(',', ' ').split() if len(t) > 1]
    return f'{tokens[0]} {tokens[-1]}' if tokens else text


works = {}
reviews = collections.defaultdict(set)
for path in sorted(glob.glob(os.path.join(DATA, '*.jsonl.gz'))):
    review = os.path.basename(path).split('.')[0]
    with gzip.open(path, 'rt') as handle:
        for line in handle:
            record = json.loads(line)
            wid = short(record['id'])
            reviews[review].add(wid)
            if wid in works:
                continue
            year = record.get('publication_year')
            venue = literal(record.get('host_venue')) or {}
            authors = []
            for authorship in literal(record.get('authorships')) or []:
                author = authorship.get('author') or {}
                if not author.get('display_name'):
                    continue
                authors.append({
                    'key': person_key(author['display_name']),
                    'name': author['display_name'],
                    'institutions': [i.get('display_name') for i in authorship.get('institutions') or [] if i.get('display_name')],
                    'countries': [i.get('country_code') for i in authorship.get('institutions') or [] if i.get('country_code')],
                })
            works[wid] = {
                'id': wid,
                'year': int(year) if year not in (None, 'None', '') else None,
                'cited': int(record.get('cited_by_count') or 0),
                'refs': sorted({short(r) for r in literal(record.get('referenced_works')) or []}),
                'authors': authors,
                'venue': venue.get('display_name') if isinstance(venue, dict) else None,
            }

citers = collections.defaultdict(set)
# Citers of every referenced id, also of works no record is (the graph's stubs).
citers_any = collections.defaultdict(set)
for work in works.values():
    for ref in work['refs']:
        citers_any[ref].add(work['id'])
        if ref in works:
            citers[ref].add(work['id'])


def topic_set(gold, years=None):
    ids = set(reviews[gold['topic']['review']] if 'topic' in gold else works)
    if gold.get('venue'):
        ids = {w for w in ids if (works[w]['venue'] or '').lower() == gold['venue'].lower()}
    dated = [works[w]['year'] for w in ids if works[w]['year']]
    lo, hi = years or gold.get('years') or [None, None]
    end = hi if hi is not None else max(dated)
    start = lo if lo is not None else min(dated)
    return {w for w in ids if works[w]['year'] and start <= works[w]['year'] <= end}, [start, end]


def h_index(counts):
    ranked = sorted(counts, reverse=True)
    return sum(1 for i, c in enumerate(ranked) if c >= i + 1)


def person_papers(key):
    return {w['id'] for w in works.values() if any(a['key'] == key for a in w['authors'])}


def person_metric(key, metric):
    papers = person_papers(key)
    if metric == 'papers':
        return len(papers)
    if metric == 'citations':
        return sum(works[p]['cited'] for p in papers)
    return h_index([works[p]['cited'] for p in papers])


def name_of(key):
    names = collections.Counter(a['name'] for w in works.values() for a in w['authors'] if a['key'] == key)
    return min(names.items(), key=lambda item: (-item[1], item[0]))[0]


def ranked(counter, n):
    """The top n keys, and every key tied with the n-th."""
    items = sorted(counter.items(), key=lambda item: (-item[1], str(item[0])))
    if not items:
        return []
    cut = items[min(n, len(items)) - 1][1]
    return [k for k, v in items if v >= cut]


def top_authors(ids, basis, n=5):
    score = collections.Counter()
    for w in ids:
        for key in {a['key'] for a in works[w]['authors']}:
            score[key] += 1 if basis == 'papers' else works[w]['cited']
    return ranked(score, n)


def paper_ranking(ids, basis, n=5):
    score = collections.Counter({w: (len(citers[w]) if basis == 'internal' else works[w]['cited']) for w in ids})
    return ranked(score, n)


def cocited(paper, n=5):
    score = collections.Counter()
    for citer in citers[paper]:
        for ref in works[citer]['refs']:
            if ref != paper and ref in works:
                score[ref] += 1
    return ranked(score, n)


def coupled(paper, n=5):
    mine = set(works[paper]['refs'])
    score = collections.Counter({w: len(mine & set(works[w]['refs'])) for w in works if w != paper})
    score = collections.Counter({w: s for w, s in score.items() if s > 0})
    return ranked(score, n)


def path_length(source, target):
    """Shortest chain of citations between two papers, either direction along each link."""
    links = collections.defaultdict(set)
    for work in works.values():
        for ref in work['refs']:
            if ref in works:
                links[work['id']].add(ref)
                links[ref].add(work['id'])
    seen, frontier, steps = {source}, [source], 0
    while frontier:
        if target in frontier:
            return steps
        steps += 1
        nxt = []
        for node in frontier:
            for other in links[node]:
                if other not in seen:
                    seen.add(other)
                    nxt.append(other)
        frontier = nxt
    return None


def cd_index(paper):
    """The CD index as docs/analytics.md defines it: the full papers published in or after the paper's year (or
    without a year) that cite it or any of its references — every reference, also those no record of the graph is
    (stubs), whose citers are the records citing them."""
    year = works[paper]['year']

    def counted(citer):
        return citer != paper and (year is None or works[citer]['year'] is None or works[citer]['year'] >= year)

    refs = set(works[paper]['refs'])
    focal = {c for c in citers[paper] if counted(c)}
    later = {c for r in refs for c in citers_any[r] if counted(c)}
    n_i = len({c for c in focal if not (set(works[c]['refs']) & refs)})
    n_j = len(focal) - n_i
    n_k = len(later - focal)
    total = n_i + n_j + n_k
    return (n_i - n_j) / total if total else None


def series(ids, window):
    counts = collections.Counter(works[w]['year'] for w in ids)
    return {y: counts.get(y, 0) for y in range(window[0], window[1] + 1)}


def figure(gold):
    op = gold['op']
    if 'steps' in gold:
        first, second = gold['steps']
        ids, _ = topic_set(first)
        if first['op'] == 'top_authors':
            key = top_authors(ids, first['basis'], 1)[0]
            inner = dict(second, person={'name': name_of(key)})
        else:
            paper = paper_ranking(ids, first['basis'], 1)[0]
            inner = dict(second, paper={'id': paper})
        result = figure(inner)
        result['via'] = inner.get('person') or inner.get('paper')
        return result
    if op == 'count_papers':
        ids, window = topic_set(gold)
        return {'kind': 'count', 'value': len(ids), 'accept': [len(ids) // 2, (3 * len(ids) + 1) // 2], 'years': window}
    if op == 'top_papers':
        ids, window = topic_set(gold)
        return {'kind': 'top', 'items': paper_ranking(ids, gold.get('basis', 'internal')), 'years': window}
    if op == 'top_authors':
        ids, window = topic_set(gold)
        return {'kind': 'top', 'items': [name_of(k) for k in top_authors(ids, gold.get('basis', 'papers'))], 'years': window}
    if op in ('top_venues', 'top_institutions', 'top_countries'):
        ids, window = topic_set(gold)
        score = collections.Counter()
        for w in ids:
            if op == 'top_venues':
                names = {works[w]['venue']} if works[w]['venue'] else set()
            elif op == 'top_institutions':
                names = {i for a in works[w]['authors'] for i in a['institutions']}
            else:
                names = {c for a in works[w]['authors'] for c in a['countries']}
            for name in names:
                score[name] += 1
        return {'kind': 'top', 'items': ranked(score, 1 if op == 'top_countries' else 3), 'years': window}
    if op == 'author_metrics':
        key = person_key(gold['person']['name'])
        return {'kind': 'value', 'metric': gold['metric'], 'value': person_metric(key, gold['metric'])}
    if op == 'coauthors':
        key = person_key(gold['person']['name'])
        score = collections.Counter()
        for p in person_papers(key):
            for other in {a['key'] for a in works[p]['authors']} - {key}:
                score[other] += 1
        return {'kind': 'top', 'items': [name_of(k) for k in ranked(score, 3)]}
    if op == 'related_papers':
        paper = gold['paper']['id']
        items = cocited(paper) if gold['relation'] == 'cocited' else coupled(paper)
        return {'kind': 'top', 'items': items}
    if op == 'derivative_works':
        return {'kind': 'value', 'metric': 'citing papers in the graph', 'value': len(citers[gold['paper']['id']])}
    if op == 'prior_works':
        refs = [r for r in works[gold['paper']['id']]['refs'] if r in works]
        return {'kind': 'value', 'metric': 'cited papers in the graph', 'value': len(refs)}
    if op == 'citation_path':
        return {'kind': 'value', 'metric': 'citation links', 'value': path_length(gold['paper']['id'], gold['paper2']['id'])}
    if op == 'compare_topics':
        sizes = [len(topic_set({'topic': t})[0]) for t in gold['topics']]
        return {'kind': 'choice', 'value': gold['topics'][sizes.index(max(sizes))]['text'], 'sizes': sizes}
    if op == 'compare_people':
        values = [person_metric(person_key(p['name']), gold['metric']) for p in gold['people']]
        winner = gold['people'][values.index(max(values))]['name'] if values[0] != values[1] else 'tie'
        return {'kind': 'choice', 'value': winner, 'values': values}
    if op == 'lotka':
        ids, _ = topic_set(gold)
        per = collections.Counter(k for w in ids for k in {a['key'] for a in works[w]['authors']})
        share = sum(1 for v in per.values() if v == 1) / len(per)
        return {'kind': 'share', 'value': round(share, 3), 'accept': [round(share - 0.03, 3), round(share + 0.03, 3)]}
    if op == 'bradford':
        ids, _ = topic_set(gold)
        per = collections.Counter(works[w]['venue'] for w in ids if works[w]['venue'])
        total, running, core = sum(per.values()), 0, []
        for venue, n in sorted(per.items(), key=lambda item: (-item[1], item[0])):
            if running >= total / 3:
                break
            running += n
            core.append(venue)
        return {'kind': 'value', 'metric': 'core journals', 'value': len(core), 'accept': [len(core) - 1, len(core) + 1], 'items': core}
    if op == 'disruptive_papers':
        ids, _ = topic_set(gold)
        scores = collections.Counter()
        for w in ids:
            # A paper citing nothing scores +1 by construction: rankings leave it out (as the product does).
            if len(citers[w]) >= 5 and works[w]['refs']:
                cd = cd_index(w)
                if cd is not None:
                    scores[w] = cd
        return {'kind': 'top', 'items': ranked(scores, 5)}
    if op == 'topic_trend':
        ids, window = topic_set(gold)
        per_year = series(ids, window)
        peak = max(per_year.values())
        return {'kind': 'peak', 'items': [y for y, n in per_year.items() if n == peak], 'years': window, 'series': per_year}
    if op == 'compare_periods':
        counts = [len(topic_set(gold, p)[0]) for p in gold['periods']]
        return {'kind': 'choice', 'value': str(gold['periods'][counts.index(max(counts))]), 'values': counts}
    if op == 'compare_topics_trend':
        lo, hi = gold['years']
        mid = (lo + hi) // 2
        growth = []
        for t in gold['topics']:
            first = len(topic_set({'topic': t}, [lo, mid])[0])
            second = len(topic_set({'topic': t}, [mid + 1, hi])[0])
            growth.append(second / first if first else float('inf'))
        return {'kind': 'choice', 'value': gold['topics'][growth.index(max(growth))]['text'], 'values': [round(g, 2) for g in growth]}
    raise ValueError(f'no gold figure for operation {op}')


def main():
    check = '--check' in sys.argv
    named = [arg for arg in sys.argv[1:] if not arg.startswith('--')]
    questions_path = named[0] if named else QUESTIONS
    with open(questions_path) as handle:
        questions = [json.loads(line) for line in handle if line.strip()]
    differ = 0
    for question in questions:
        if not question.get('gold'):
            continue
        computed = figure(question['gold'])
        if check and question.get('figure') != json.loads(json.dumps(computed)):
            differ += 1
            print(f"{question['id']}: figure {question.get('figure')} != recount {computed}")
        question['figure'] = computed
    if check:
        print(f'{differ} of {sum(1 for q in questions if q.get("gold"))} figures differ from the recount')
        sys.exit(1 if differ else 0)
    with open(questions_path, 'w') as handle:
        for question in questions:
            handle.write(json.dumps(question, ensure_ascii=False) + '\n')
    print(f'{sum(1 for q in questions if q.get("gold"))} gold figures written to {questions_path}')


if __name__ == '__main__':
    main()
