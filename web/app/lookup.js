// Looking things up by name: a text field that suggests topics, authors, venues or papers as the reader types (the
// service's name lookups: `topics(search)`, `authors(search)`, `venues(search)`, `search(query)` for paper titles) and hands the chosen one's id
// to the view.
import React, { useEffect, useRef, useState } from 'react';
import { gql } from './data.js';
import { navigate } from './routing.js';

const h = React.createElement;

/** Per kind: the lookup query and how a match reads in the list. */
const LOOKUPS = {
  topic: {
    query: `query($q: String!) { found: topics(search: $q, first: 10) { papers topic { id name level } } }`,
    items: (data) =>
      data.found.map((m) => ({
        id: m.topic.id,
        name: m.topic.name,
        detail: `${papers(m.papers)} · level ${m.topic.level ?? '?'}`,
      })),
  },
  author: {
    query: `query($q: String!) { found: authors(search: $q, first: 10) { papers author { id name } } }`,
    items: (data) => data.found.map((m) => ({ id: m.author.id, name: m.author.name, detail: papers(m.papers) })),
  },
  venue: {
    query: `query($q: String!) { found: venues(search: $q, first: 10) { edges { node { papers venue { id name type } } } } }`,
    items: (data) =>
      data.found.edges.map(({ node: m }) => ({
        id: m.venue.id,
        name: m.venue.name ?? m.venue.id,
        detail: [m.venue.type, papers(m.papers)].filter(Boolean).join(' · '),
      })),
  },
  paper: {
    query: `query($q: String!) { found: search(query: $q, first: 8) { results { paper { id title year } } } }`,
    items: (data) =>
      data.found.results.map((r) => ({
        id: r.paper.id,
        name: r.paper.title ?? r.paper.id,
        detail: String(r.paper.year ?? ''),
      })),
  },
};

const papers = (n) => `${n} paper${n === 1 ? '' : 's'}`;

/** What an option of the list reads: the name, then what tells two of one name apart. */
const optionText = (item) => (item.detail ? `${item.name} — ${item.detail}` : item.name);

/**
 * A field with suggestions by name. `onPick({ id, name })` runs when the reader picks a suggestion, or presses Enter
 * (the exact name typed, else the best suggestion for the text); an id typed as it is (C…, A…, S…, W…) is taken too.
 */
export function NamePicker({ kind, label, placeholder, onPick }) {
  const [text, setText] = useState('');
  // The suggestions and the text they were looked up for.
  const [found, setFound] = useState({ for: '', items: [] });
  const listId = useRef(`lookup-${kind}-${Math.random().toString(36).slice(2)}`).current;
  const lookUp = (wanted) =>
    gql(LOOKUPS[kind].query, { q: wanted }).then(
      ({ data }) => ({ for: wanted, items: LOOKUPS[kind].items(data) }),
      () => ({ for: wanted, items: [] }),
    );
  useEffect(() => {
    const wanted = text.trim();
    if (wanted.length < 2 || found.items.some((item) => optionText(item) === text)) return undefined;
    let live = true;
    const timer = setTimeout(() => lookUp(wanted).then((result) => live && setFound(result)), 200);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text, kind]);
  const take = (item) => {
    onPick({ id: item.id, name: item.name });
    setText('');
    setFound({ for: '', items: [] });
  };
  /** The option chosen from the list, or the exact name typed. */
  const chosen = (value, items) =>
    items.find((item) => optionText(item) === value) ??
    items.find((item) => item.name.toLowerCase() === value.trim().toLowerCase());
  /** Enter: the exact name, else the best suggestion for the text (looked up now if the list is not for it yet). */
  const enter = async (value) => {
    const wanted = value.trim();
    if (/^[CAWS]\d+$/i.test(wanted)) return take({ id: wanted.toUpperCase(), name: wanted.toUpperCase() });
    const result = found.for === wanted ? found : await lookUp(wanted);
    const item = chosen(value, result.items) ?? result.items[0];
    if (item) take(item);
    else setFound(result);
  };
  return h(
    'label',
    { className: 'field lookup' },
    h('span', null, label),
    h('input', {
      value: text,
      list: listId,
      placeholder,
      autoComplete: 'off',
      'data-lookup': kind,
      onChange: (e) => {
        setText(e.target.value);
        // Choosing from the list puts the option's text in the field: take it at once.
        const item = found.items.find((candidate) => optionText(candidate) === e.target.value);
        if (item) take(item);
      },
      onKeyDown: (e) => {
        if (e.key === 'Enter' && text.trim()) {
          e.preventDefault();
          void enter(text);
        }
      },
    }),
    h(
      'datalist',
      { id: listId },
      found.items.map((item) => h('option', { key: item.id, value: optionText(item) })),
    ),
  );
}

/** A finder above a view: pick an author or a paper by name and the view shows it. */
export function Finder({ kind, label, placeholder }) {
  return h(
    'div',
    { className: 'finder', role: 'search' },
    h(NamePicker, { kind, label, placeholder, onPick: ({ id }) => navigate({ view: kind, id }) }),
  );
}
