// Recounts the stored aggregates that a write to `$papers` may have changed. Idempotent: every value is counted
// afresh, never incremented, so a re-ingest, a stub becoming a full paper or a removal leaves them right.
// - p.internalCitedBy (citations from full papers) of the given papers and of every paper they cite now; the caller
//   adds the papers they cited before the write (aggregates/affected-before).
// - Per person over full papers — records sharing an ORCID are one person, keyed `a.person` — on every record of
//   the person: personPapers, personInternal, personGlobal (sums of internal and global citations) and
//   personRecord, the smallest record id, which stands for the person in lists. The persons recounted are the
//   signers of every paper recounted and `$people` (signers before the write).
// - Per venue over its full papers: venuePapers, venueGlobal, venueInternal, venueFirstYear, venueLastYear, for the
//   venues of every paper recounted and `$venues` (venues before the write).
// - Full papers per topic and year (TopicYear: `papers`, and `strong` with a topic score ≥ $strongScore), per year
//   (PaperYear) and in all (PaperTotals): by difference, since a topic or a year can hold most of the graph — what
//   the written papers `$written` counted for before the write (`$counted`, from aggregates/affected-before) is taken
//   off and what they count for now is added. A re-ingest takes off what it adds back; a count that reaches zero is
//   deleted. aggregates/refresh-all-years recounts them from scratch.
CALL () {
  UNWIND $papers AS id
  MATCH (p:Paper {id: id})
  OPTIONAL MATCH (p)-[:CITES]->(q:Paper)
  RETURN collect(DISTINCT p) + collect(DISTINCT q) AS candidates
}
CALL (candidates) {
  UNWIND candidates AS p
  WITH DISTINCT p
  SET p.internalCitedBy = COUNT { (p)<-[:CITES]-(:Paper {stub: false}) }
  RETURN collect([(a:Author)-[:AUTHORED]->(p) | coalesce('orcid:' + a.orcid, a.id)]) AS signerLists,
         collect([(p)-[:PUBLISHED_IN]->(v:Venue) | v.id]) AS venueLists
}
// The venues of every paper recounted and those the written papers were in before: their totals sum what changed.
CALL (venueLists) {
  UNWIND reduce(all = $venues, ids IN venueLists | all + ids) AS venueId
  WITH DISTINCT venueId
  MATCH (v:Venue {id: venueId})
  // include: fragments/venue-totals
  RETURN count(v) AS venues
}
CALL () {
  UNWIND $written AS id
  MATCH (p:Paper {id: id})
  WHERE p.stub = false
  RETURN collect({year: p.year, topics: [(p)-[r:HAS_TOPIC]->(t:Topic) | {id: t.id, score: r.score}]}) AS now
}
CALL (now) {
  WITH [row IN $counted | row {.*, sign: -1}] + [row IN now | row {.*, sign: 1}] AS changes
  CALL (changes) {
    UNWIND changes AS change
    WITH change WHERE change.year IS NOT NULL
    UNWIND change.topics AS topic
    WITH topic.id AS topicId, change.year AS year, sum(change.sign) AS papers,
         sum(CASE WHEN topic.score >= $strongScore THEN change.sign ELSE 0 END) AS strong
    WHERE papers <> 0 OR strong <> 0
    MERGE (c:TopicYear {topic: topicId, year: year})
    SET c.papers = coalesce(c.papers, 0) + papers, c.strong = coalesce(c.strong, 0) + strong
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
UNWIND reduce(all = $people, ids IN signerLists | all + ids) AS person
WITH DISTINCT person
CALL (person) {
  // include: fragments/person-totals
  RETURN records
}
RETURN count(person) AS people, sum(records) AS records
