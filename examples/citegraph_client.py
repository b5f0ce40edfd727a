"""A small Python client of citegraph's GraphQL API, for notebooks: lists come back as pandas DataFrames and
networks as networkx graphs. Only `requests`, `pandas` and `networkx` are needed.

    from citegraph_client import Citegraph
    cg = Citegraph("http://127.0.0.1:4000")          # api_key="…" when the server needs one
    cg.top_papers(collections=["Nelson_2002"]).head()

What the server says besides the data (`extensions.warnings`: a list capped at its limit, a lookup that found
nothing) arrives as a Python warning of class CitegraphWarning; a mistake (a misspelt collection, an unknown id, a
query over the cost limit) raises CitegraphError with the server's message, which names the closest known names or
the costliest fields.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import networkx as nx
import pandas as pd
import requests


class CitegraphError(RuntimeError):
    """A GraphQL error: the message, the `extensions.code` and the other extensions of the first error.

    >>> try:
    ...     cg.top_papers(collections=["nelson 2002"])
    ... except CitegraphError as error:
    ...     print(error.code, error.extensions.get("unknown"))
    BAD_USER_INPUT [{'field': 'filter.collections', 'value': 'nelson 2002', 'closest': ['Nelson_2002']}]
    """

    def __init__(self, message: str, code: str | None, extensions: dict | None = None):
        super().__init__(f"{code}: {message}" if code else message)
        self.code = code
        self.extensions = extensions or {}


class CitegraphWarning(UserWarning):
    """A warning of the server (`extensions.warnings`): the answer stands, but something was capped or not found."""


class Citegraph:
    """A connection to one citegraph server.

    >>> cg = Citegraph("http://127.0.0.1:4000", api_key=None)
    """

    def __init__(self, url: str = "http://127.0.0.1:4000", api_key: str | None = None, timeout: float = 120):
        self.url = url.rstrip("/")
        self.session = requests.Session()
        if api_key:
            self.session.headers["Authorization"] = f"Bearer {api_key}"
        self.timeout = timeout

    # -- the protocol -------------------------------------------------------------------------------------------------

    def query(self, query: str, **variables: Any) -> dict:
        """Runs one GraphQL operation and returns its `data`; the server's warnings become CitegraphWarning, and an
        error raises CitegraphError.

        >>> cg.query("{ health { ok neo4jVersion } }")
        {'health': {'ok': True, 'neo4jVersion': '5.26.0'}}
        """
        response = self.session.post(
            f"{self.url}/graphql", json={"query": query, "variables": variables}, timeout=self.timeout
        )
        body = response.json()
        if body.get("errors"):
            first = body["errors"][0]
            extensions = dict(first.get("extensions") or {})
            raise CitegraphError(first["message"], extensions.pop("code", None), extensions)
        response.raise_for_status()
        for message in (body.get("extensions") or {}).get("warnings", []):
            warnings.warn(message, CitegraphWarning, stacklevel=2)
        return body["data"]

    @staticmethod
    def _filter(collections=None, years=None, topics=None, authors=None, venues=None, text=None) -> dict | None:
        """A WorkFilter from keyword arguments: collections=[…], years=(from, to), topics=[…], authors=[…],
        venues=[…], text="words every paper holds"."""
        work_filter: dict[str, Any] = {}
        if collections:
            work_filter["collections"] = list(collections)
        if years:
            work_filter["years"] = {"from": years[0], "to": years[1]}
        for name, value in (("topics", topics), ("authors", authors), ("venues", venues)):
            if value:
                work_filter[name] = list(value)
        if text:
            work_filter["text"] = text
        return work_filter or None

    # -- lists as DataFrames ------------------------------------------------------------------------------------------

    def iter_papers(self, page_size: int = 100, **filters) -> Iterator[dict]:
        """Every paper of the filter, one dict at a time, fetched page by page (the connection's cursors).

        >>> sum(1 for _ in cg.iter_papers(collections=["Nelson_2002"]))
        366
        """
        after = None
        while True:
            data = self.query(
                """query ($filter: WorkFilter, $first: Int, $after: String) {
                     papers(filter: $filter, first: $first, after: $after) {
                       pageInfo { hasNextPage endCursor }
                       edges { node { id doi title year type citedByCount internalCitationCount
                                      volume issue pages venue { name } authors { author { name } } } } } }""",
                filter=self._filter(**filters),
                first=page_size,
                after=after,
            )["papers"]
            for edge in data["edges"]:
                node = dict(edge["node"])
                node["venue"] = (node.get("venue") or {}).get("name")
                node["authors"] = "; ".join(a["author"]["name"] for a in node.get("authors") or [])
                yield node
            if not data["pageInfo"]["hasNextPage"]:
                return
            after = data["pageInfo"]["endCursor"]

    def papers(self, page_size: int = 100, **filters) -> pd.DataFrame:
        """Every paper of the filter as a DataFrame (all pages): id, DOI, title, year, venue, volume, issue, pages,
        authors and citations.

        >>> cg.papers(collections=["Nelson_2002"], years=(1995, 1999)).shape[0]
        131
        """
        return pd.DataFrame(list(self.iter_papers(page_size=page_size, **filters)))

    def search(self, query: str, first: int = 20, **filters) -> pd.DataFrame:
        """Hybrid search (BM25 and dense vectors, fused): one row per result with its score, ranks and the paper.

        >>> cg.search("estrogen and dementia", first=5)[["title", "year", "score"]]
        """
        data = self.query(
            """query ($q: String!, $first: Int, $filter: WorkFilter) {
                 search(query: $q, first: $first, filter: $filter) { results {
                   rank score trace { sparse { rank } dense { rank } }
                   paper { id title year doi citedByCount venue { name } authors { author { name } } } } } }""",
            q=query,
            first=first,
            filter=self._filter(**filters),
        )
        rows = []
        for result in data["search"]["results"]:
            paper = result["paper"]
            rows.append(
                {
                    "id": paper["id"],
                    "title": paper["title"],
                    "year": paper["year"],
                    "venue": (paper.get("venue") or {}).get("name"),
                    "authors": "; ".join(a["author"]["name"] for a in paper["authors"]),
                    "citations": paper["citedByCount"],
                    "score": result["score"],
                    "bm25_rank": (result["trace"].get("sparse") or {}).get("rank"),
                    "dense_rank": (result["trace"].get("dense") or {}).get("rank"),
                }
            )
        return pd.DataFrame(
            rows, columns=["id", "title", "year", "venue", "authors", "citations", "score", "bm25_rank", "dense_rank"]
        )

    def top_papers(self, first: int = 20, by: str = "INTERNAL_CITATIONS", **filters) -> pd.DataFrame:
        """The most cited papers of the filter (collections=, years=(from, to), topics=, …).

        >>> cg.top_papers(first=3, collections=["Nelson_2002"])[["title", "citations"]]
        """
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
        """Papers per year of each topic: one column per topic (its name), one row per year.

        >>> cg.trends(["C2777164284"], 1990, 2002, collections=["Nelson_2002"]).plot()
        """
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
        """An author's profile: name, metrics (h-index in the graph and overall), co-authors and main topics as
        returned by the server; `coauthors(author_id)` gives the co-authors as a DataFrame.

        >>> cg.author("A2555644867")["metrics"]["hIndexInternal"]
        """
        return self.query(
            """query ($id: ID!) { author(id: $id) {
                 id name orcid paperCount
                 metrics { works hIndexInternal hIndexGlobal citationsInternal citationsGlobal firstYear lastYear }
                 coauthors(first: 10) { edges { jointPapers node { id name } } }
                 mainTopics(first: 5) { papers topic { name } } } }""",
            id=author_id,
        )["author"]

    def coauthors(self, author_id: str, first: int = 50) -> pd.DataFrame:
        """An author's co-authors, most joint papers first: id, name and joint papers.

        >>> cg.coauthors("A2555644867").head()
        """
        data = self.query(
            """query ($id: ID!, $first: Int) { author(id: $id) {
                 coauthors(first: $first) { edges { jointPapers node { id name } } } } }""",
            id=author_id,
            first=first,
        )["author"]
        rows = [
            {"id": e["node"]["id"], "name": e["node"]["name"], "joint_papers": e["jointPapers"]}
            for e in (data or {"coauthors": {"edges": []}})["coauthors"]["edges"]
        ]
        return pd.DataFrame(rows, columns=["id", "name", "joint_papers"])

    # -- networks -----------------------------------------------------------------------------------------------------

    def network(self, kind: str = "COAUTHORSHIP", limit: int = 100, min_weight: int = 1, **filters) -> nx.Graph:
        """A whole network of the filter's papers as networkx, laid out as the page draws it: COAUTHORSHIP, COUPLING,
        COCITATION, CITATION (a DiGraph) or TOPIC_COOCCURRENCE. Nodes carry label, weight, Louvain cluster, their place
        on the server's map (x, y, size in the frame), mean year and, for papers, year, DOI and citations; edges carry
        their weight and whether the map draws them (backbone). The graph's ``frame`` and named ``clusters`` are in
        ``graph.graph``; ``Citegraph.positions`` and ``Citegraph.clusters`` read them.

        >>> g = cg.network("COUPLING", collections=["Nelson_2002"])
        >>> nx.get_node_attributes(g, "cluster")
        """
        data = self.query(
            """query ($kind: MapKind!, $filter: WorkFilter, $limit: Int, $minWeight: Int) {
                 network(kind: $kind, filter: $filter, limit: $limit, minWeight: $minWeight) {
                   directed mergedRecords frame { width height margin }
                   clusters { cluster size name terms meanYear colour }
                   nodes { id label type weight degree cluster year doi citedByCount x y size meanYear records }
                   edges { source target weight backbone } } }""",
            kind=kind,
            filter=self._filter(**filters),
            limit=limit,
            minWeight=min_weight,
        )["network"]
        graph = nx.DiGraph() if data["directed"] else nx.Graph()
        graph.graph.update(frame=data["frame"], clusters=data["clusters"], merged_records=data["mergedRecords"])
        for node in data["nodes"]:
            graph.add_node(node["id"], **{key: value for key, value in node.items() if key != "id"})
        for edge in data["edges"]:
            graph.add_edge(edge["source"], edge["target"], weight=edge["weight"], backbone=edge["backbone"])
        return graph

    @staticmethod
    def positions(graph: nx.Graph) -> dict:
        """The server's map places of a ``network`` as a networkx layout (y turned upwards, as matplotlib draws).

        >>> g = cg.network("COAUTHORSHIP", collections=["Nelson_2002"])
        >>> nx.draw(g, Citegraph.positions(g), edgelist=[e for e in g.edges if g.edges[e]["backbone"]])
        """
        height = graph.graph["frame"]["height"]
        return {n: (a["x"], height - a["y"]) for n, a in graph.nodes(data=True)}

    @staticmethod
    def clusters(graph: nx.Graph) -> pd.DataFrame:
        """A ``network``'s named clusters (name, size, mean year, colour) as a DataFrame indexed by cluster number.

        >>> Citegraph.clusters(cg.network("COCITATION", collections=["Nelson_2002"]))[["name", "size"]]
        """
        return pd.DataFrame(graph.graph["clusters"]).set_index("cluster") if graph.graph["clusters"] else pd.DataFrame()

    @staticmethod
    def nodes(graph: nx.Graph) -> pd.DataFrame:
        """A network's nodes and their attributes as a DataFrame (one row per node, indexed by id).

        >>> Citegraph.nodes(cg.network("COUPLING", collections=["Nelson_2002"])).groupby("cluster").size()
        """
        return pd.DataFrame.from_dict(dict(graph.nodes(data=True)), orient="index")

    def cocitation_network(self, paper_id: str, first: int = 20) -> nx.Graph:
        """The paper and the papers most often cited together with it, edges weighted by co-citations.

        >>> cg.cocitation_network("W4254959959", first=10).number_of_nodes()
        """
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
        """Papers as a file: BIBTEX, RIS, CSV, JSONL or CSL_JSON; of ids, or of the filter (most cited first). Each
        record carries volume, issue, pages, publisher, ISSN, language, licence and keywords where known.

        >>> open("nelson.bib", "w").write(cg.export("BIBTEX", collections=["Nelson_2002"]))
        """
        data = self.query(
            """query ($ids: [ID!], $filter: WorkFilter, $format: BibliographyFormat!) {
                 paperExport(ids: $ids, filter: $filter, format: $format, first: 5000) { papers content } }""",
            ids=ids,
            filter=None if ids else self._filter(**filters),
            format=format,
        )
        return data["paperExport"]["content"]

    def ask(self, question: str, **options) -> dict:
        """A cited answer (or an abstention) with its citations, sufficiency and route; options as AskOptionsInput
        (collections=[…], externalSearch=False, …).

        >>> cg.ask("Does estrogen replacement therapy increase the risk of ovarian cancer?")["answer"]
        """
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
        """The citations of an answer, one row per citation: marker, paper, field, offsets and the quote.

        >>> Citegraph.citations(cg.ask("Does estrogen replacement therapy increase the risk of ovarian cancer?"))
        """
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
