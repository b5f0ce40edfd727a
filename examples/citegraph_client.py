"""A small Python client of citegraph's GraphQL API, for notebooks: lists come back as pandas DataFrames and
networks as networkx graphs. Only `requests`, `pandas` and `networkx` are needed.

    from citegraph_client import Citegraph
    cg = Citegraph("http://127.0.0.1:4000")          # api_key="…" when the server needs one
    cg.top_papers(collections=["Nelson_2002"]).head()
"""

from __future__ import annotations

from typing import Any

import networkx as nx
import pandas as pd
import requests


class CitegraphError(RuntimeError):
    """A GraphQL error: the message and the `extensions.code` of the first error."""

    def __init__(self, message: str, code: str | None):
        super().__init__(f"{code}: {message}" if code else message)
        self.code = code


class Citegraph:
    def __init__(self, url: str = "http://127.0.0.1:4000", api_key: str | None = None, timeout: float = 120):
        self.url = url.rstrip("/")
        self.session = requests.Session()
        if api_key:
            self.session.headers["Authorization"] = f"Bearer {api_key}"
        self.timeout = timeout

    # -- the protocol -------------------------------------------------------------------------------------------------

    def query(self, query: str, **variables: Any) -> dict:
        """Runs one GraphQL operation and returns its `data`; raises CitegraphError on an error."""
        response = self.session.post(
            f"{self.url}/graphql", json={"query": query, "variables": variables}, timeout=self.timeout
        )
        body = response.json()
        if body.get("errors"):
            first = body["errors"][0]
            raise CitegraphError(first["message"], first.get("extensions", {}).get("code"))
        response.raise_for_status()
        return body["data"]

    @staticmethod
    def _filter(collections=None, years=None, topics=None) -> dict | None:
        work_filter: dict[str, Any] = {}
        if collections:
            work_filter["collections"] = list(collections)
        if years:
            work_filter["years"] = {"from": years[0], "to": years[1]}
        if topics:
            work_filter["topics"] = list(topics)
        return work_filter or None

    # -- lists as DataFrames ------------------------------------------------------------------------------------------

    def top_papers(self, first: int = 20, by: str = "INTERNAL_CITATIONS", **filters) -> pd.DataFrame:
        """The most cited papers of the filter (collections=, years=(from, to), topics=)."""
        data = self.query(
            """query ($filter: WorkFilter, $first: Int, $by: CitationBasis) {
                 topPapers(filter: $filter, first: $first, by: $by) {
                   edges { node { score paper { id title year doi } } } } }""",
            filter=self._filter(**filters),
            first=first,
            by=by,
        )
        rows = [{**edge["node"]["paper"], "citations": edge["node"]["score"]} for edge in data["topPapers"]["edges"]]
        return pd.DataFrame(rows, columns=["id", "title", "year", "doi", "citations"])

    def trends(self, topics: list[str], start: int, end: int, **filters) -> pd.DataFrame:
        """Papers per year of each topic: one column per topic (its name), one row per year."""
        data = self.query(
            """query ($topics: [ID!], $from: Int!, $to: Int!, $filter: WorkFilter) {
                 trends(topics: $topics, from: $from, to: $to, filter: $filter) {
                   series { key topic { name } points { year count } } } }""",
            topics=topics,
            **{"from": start, "to": end},
            filter=self._filter(**filters),
        )
        columns = {}
        for series in data["trends"]["series"]:
            name = (series.get("topic") or {}).get("name") or series["key"]
            columns[name] = {point["year"]: point["count"] for point in series["points"]}
        return pd.DataFrame(columns).sort_index()

    def author(self, author_id: str) -> dict:
        """An author's profile: name, metrics (h-index in the graph and overall), co-authors and main topics."""
        return self.query(
            """query ($id: ID!) { author(id: $id) {
                 id name orcid paperCount
                 metrics { works hIndexInternal hIndexGlobal citationsInternal citationsGlobal firstYear lastYear }
                 coauthors(first: 10) { edges { jointPapers node { id name } } }
                 mainTopics(first: 5) { papers topic { name } } } }""",
            id=author_id,
        )["author"]

    # -- networks -----------------------------------------------------------------------------------------------------

    def cocitation_network(self, paper_id: str, first: int = 20) -> nx.Graph:
        """The paper and the papers most often cited together with it, edges weighted by co-citations."""
        data = self.query(
            """query ($id: ID!, $first: Int) { paper(id: $id) {
                 id title coCited(first: $first) { edges { count node { id title year } } } } }""",
            id=paper_id,
            first=first,
        )["paper"]
        graph = nx.Graph()
        graph.add_node(data["id"], title=data["title"])
        for edge in data["coCited"]["edges"]:
            node = edge["node"]
            graph.add_node(node["id"], title=node["title"], year=node["year"])
            graph.add_edge(data["id"], node["id"], weight=edge["count"])
        return graph

    # -- files and answers --------------------------------------------------------------------------------------------

    def export(self, format: str = "BIBTEX", ids: list[str] | None = None, **filters) -> str:
        """Papers as a file: BIBTEX, RIS, CSV, JSONL or CSL_JSON; of ids, or of the filter (most cited first)."""
        data = self.query(
            """query ($ids: [ID!], $filter: WorkFilter, $format: BibliographyFormat!) {
                 paperExport(ids: $ids, filter: $filter, format: $format, first: 5000) { papers content } }""",
            ids=ids,
            filter=None if ids else self._filter(**filters),
            format=format,
        )
        return data["paperExport"]["content"]

    def ask(self, question: str, **options) -> dict:
        """A cited answer (or an abstention) with its citations, sufficiency and route."""
        return self.query(
            """query ($q: String!, $options: AskOptionsInput) { ask(question: $q, options: $options) {
                 answer abstained abstentionReason route
                 sentences { text citations { marker quote field start end paper { id title year } } }
                 sufficiency { score band } } }""",
            q=question,
            options=options or None,
        )["ask"]

    @staticmethod
    def citations(answer: dict) -> pd.DataFrame:
        """The citations of an answer, one row per citation: marker, paper, field, offsets and the quote."""
        rows = [
            {
                "marker": c["marker"],
                "paper": c["paper"]["id"],
                "title": c["paper"]["title"],
                "field": c["field"],
                "start": c["start"],
                "end": c["end"],
                "quote": c["quote"],
            }
            for sentence in answer["sentences"]
            for c in sentence["citations"]
        ]
        return pd.DataFrame(rows).drop_duplicates(subset=["marker", "start"]).reset_index(drop=True)
