// Recounts one person's totals, with `person` bound (the key: 'orcid:' + ORCID, or the record id of a record with no
// ORCID), on every record of the person: personPapers, personInternal, personGlobal over full papers (each paper once
// however many of the person's records signed it) and personRecord, the smallest record id. The record that stands
// for a person with papers carries the label :Person (indexed on the totals: whole-graph rankings read the top of an
// index instead of sorting every author). Ends with `records`.
CALL (person) {
  MATCH (a:Author {orcid: substring(person, 6)})
  WHERE person STARTS WITH 'orcid:'
  RETURN a
  UNION
  MATCH (a:Author {id: person})
  WHERE a.orcid IS NULL
  RETURN a
}
WITH person, collect(a) AS members
CALL (members) {
  UNWIND members AS a
  MATCH (a)-[:AUTHORED]->(p:Paper {stub: false})
  WITH DISTINCT p
  RETURN count(p) AS papers, sum(p.internalCitedBy) AS internal, sum(coalesce(p.citedByCount, 0)) AS global
}
WITH person, members, papers, internal, global,
     reduce(least = null, a IN members | CASE WHEN least IS NULL OR a.id < least THEN a.id ELSE least END) AS record
FOREACH (a IN members |
  SET a.person = person, a.personPapers = papers, a.personInternal = internal, a.personGlobal = global,
      a.personRecord = record
  REMOVE a:Person)
FOREACH (a IN [m IN members WHERE m.id = record AND papers > 0] | SET a:Person)
WITH size(members) AS records
