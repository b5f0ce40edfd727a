// Brings the stored aggregates up to date after a write to the papers `$written`, in the write's transaction;
// `$before` holds their parts as they stood (aggregates/affected-before). Only what the write changed is touched, so
// the cost grows with the write, not with the graph (a venue, a topic or a cited paper can hold most of it):
// - Paper.internalCitedBy (citations from full papers): a written paper is recounted; a paper a written paper cites
//   now or cited before changes by the citations from full written papers now less those before.
// - Per person over full papers — records sharing an ORCID are one person, keyed `a.person` — on every record of
//   the person: personPapers, personInternal, personGlobal and personRecord (fragments/person-totals). The signers
//   of the written papers, before and now, are recounted; the people of a cited paper whose internal count changed
//   change by as much.
// - Per venue over its full papers: venuePapers, venueGlobal, venueInternal by difference (a written paper's part
//   before taken off, its part now added; a cited paper's change of internal count added), venueFirstYear and
//   venueLastYear widened by the papers added and recounted only when a paper leaves the first or the last year.
// - Full papers per topic and year (TopicYear: `papers`, `strong` with a topic score ≥ $strongScore, and `internal`,
//   the sum of their internal citation counts), per year (PaperYear) and in all (PaperTotals), by difference; a
//   count that reaches zero is deleted.
// A re-ingest takes off what it adds back. test/integration/aggregates.test.ts recounts every value from the raw
// graph after each kind of write; aggregates/refresh-all-* recount them from scratch (`citegraph db recount`).
CALL () {
  UNWIND $written AS id
  MATCH (p:Paper {id: id})
  SET p.internalCitedBy = COUNT { (p)<-[:CITES]-(:Paper {stub: false}) }
  RETURN collect(
    // include: fragments/paper-part
  ) AS now
}
WITH now, [b IN $before WHERE b.full] AS fullBefore, [n IN now WHERE n.full] AS fullNow
// Internal citation counts of the papers the written papers cite, now or before (the written ones were recounted).
CALL (fullBefore, fullNow) {
  UNWIND [b IN fullBefore | {cited: b.cited, sign: -1}] + [n IN fullNow | {cited: n.cited, sign: 1}] AS side
  UNWIND side.cited AS citedId
  WITH citedId, sum(side.sign) AS change
  WHERE change <> 0 AND NOT citedId IN $written
  MATCH (q:Paper {id: citedId})
  SET q.internalCitedBy = coalesce(q.internalCitedBy, 0) + change
  WITH q, change
  WHERE q.stub = false
  RETURN collect({
    change: change,
    year: q.year,
    topics: [(q)-[:HAS_TOPIC]->(t:Topic) | {id: t.id}],
    venue: head([(q)-[:PUBLISHED_IN]->(v:Venue) | v.id]),
    people: COLLECT { MATCH (a:Author)-[:AUTHORED]->(q) RETURN DISTINCT coalesce('orcid:' + a.orcid, a.id) }
  }) AS shifted
}
// Venue totals by difference; the first and last year widened, or recounted when a paper left one of them.
CALL (fullBefore, fullNow, shifted) {
  UNWIND [b IN fullBefore WHERE b.venue IS NOT NULL |
            {venue: b.venue, year: b.year, papers: -1, global: -b.global, internal: -b.internal}] +
         [n IN fullNow WHERE n.venue IS NOT NULL |
            {venue: n.venue, year: n.year, papers: 1, global: n.global, internal: n.internal}] +
         [s IN shifted WHERE s.venue IS NOT NULL | {venue: s.venue, year: null, papers: 0, global: 0, internal: s.change}]
         AS change
  WITH change.venue AS venueId, change.year AS year, sum(change.papers) AS papers, sum(change.global) AS global,
       sum(change.internal) AS internal
  WITH venueId, sum(papers) AS papers, sum(global) AS global, sum(internal) AS internal,
       min(CASE WHEN papers > 0 THEN year END) AS firstAdded, max(CASE WHEN papers > 0 THEN year END) AS lastAdded,
       collect(CASE WHEN papers < 0 THEN year END) AS shrunk
  MATCH (v:Venue {id: venueId})
  // Each sum read and written in one SET: the venue is locked before it is read, so concurrent writes add up.
  SET v.venuePapers = coalesce(v.venuePapers, 0) + papers, v.venueGlobal = coalesce(v.venueGlobal, 0) + global,
      v.venueInternal = coalesce(v.venueInternal, 0) + internal
  WITH v, firstAdded, lastAdded, v.venuePapers AS total,
       coalesce(v.venueFirstYear IN shrunk OR v.venueLastYear IN shrunk, false) AS boundaryLeft
  CALL (v, total, boundaryLeft) {
    WITH v WHERE boundaryLeft AND total > 0
    MATCH (v)<-[:PUBLISHED_IN]-(p:Paper {stub: false})
    RETURN min(p.year) AS firstRecounted, max(p.year) AS lastRecounted
  }
  SET v.venueFirstYear = CASE
        WHEN total <= 0 THEN null
        WHEN boundaryLeft THEN firstRecounted
        WHEN v.venueFirstYear IS NULL OR firstAdded < v.venueFirstYear THEN firstAdded
        ELSE v.venueFirstYear END,
    v.venueLastYear = CASE
        WHEN total <= 0 THEN null
        WHEN boundaryLeft THEN lastRecounted
        WHEN v.venueLastYear IS NULL OR lastAdded > v.venueLastYear THEN lastAdded
        ELSE v.venueLastYear END
  RETURN count(v) AS venues
}
// The signers of the written papers, before and now, recounted.
CALL (now) {
  UNWIND [b IN $before | b.people] + [n IN now | n.people] AS people
  UNWIND people AS person
  WITH DISTINCT person
  CALL (person) {
    // include: fragments/person-totals
    RETURN records
  }
  RETURN collect(person) AS recounted, sum(records) AS records
}
// The other people of a cited paper whose internal count changed: their internal totals change by as much.
CALL (shifted, recounted) {
  UNWIND shifted AS s
  UNWIND s.people AS person
  WITH person, sum(s.change) AS change
  WHERE change <> 0 AND NOT person IN recounted
  MATCH (a:Author {person: person})
  SET a.personInternal = coalesce(a.personInternal, 0) + change
  RETURN count(a) AS shiftedRecords
}
// Full papers per topic and year (with the sum of their internal counts: the written papers' parts, and the change of
// a cited paper's count), per year and in all.
CALL (fullBefore, fullNow, shifted) {
  WITH [b IN fullBefore | {year: b.year, topics: b.topics, sign: -1, internal: -b.internal}] +
       [n IN fullNow | {year: n.year, topics: n.topics, sign: 1, internal: n.internal}] AS changes
  CALL (changes, shifted) {
    UNWIND changes + [s IN shifted | {year: s.year, topics: s.topics, sign: 0, internal: s.change}] AS change
    WITH change WHERE change.year IS NOT NULL
    UNWIND change.topics AS topic
    WITH topic.id AS topicId, change.year AS year, sum(change.sign) AS papers,
         sum(CASE WHEN topic.score >= $strongScore THEN change.sign ELSE 0 END) AS strong, sum(change.internal) AS internal
    WHERE papers <> 0 OR strong <> 0 OR internal <> 0
    MERGE (c:TopicYear {topic: topicId, year: year})
    SET c.papers = coalesce(c.papers, 0) + papers, c.strong = coalesce(c.strong, 0) + strong,
        c.internal = coalesce(c.internal, 0) + internal
    WITH c WHERE c.papers <= 0
    DELETE c
    RETURN count(*) AS emptiedTopicYears
  }
  CALL (changes) {
    UNWIND changes AS change
    WITH change WHERE change.year IS NOT NULL
    WITH change.year AS year, sum(change.sign) AS papers
    WHERE papers <> 0
    MERGE (c:PaperYear {year: year})
    SET c.papers = coalesce(c.papers, 0) + papers
    WITH c WHERE c.papers <= 0
    DELETE c
    RETURN count(*) AS emptiedYears
  }
  CALL (changes) {
    WITH reduce(sum = 0, change IN changes | sum + change.sign) AS papers
    WHERE size(changes) > 0
    MERGE (c:PaperTotals {id: 'full'})
    SET c.papers = coalesce(c.papers, 0) + papers
    RETURN count(*) AS totals
  }
  RETURN size(changes) AS changes
}
RETURN size(now) AS written, records
