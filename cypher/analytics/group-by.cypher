// The filtered full papers counted per value of one field ($field), like OpenAlex's group_by: each group's key, its
// label (a name for ids) and its papers; a paper with several values (topics, authors) counts in each. Also the papers
// in the filter and those without any value. Groups by count ($byKey false) or by key, at most $limit.
MATCH (p:Paper)
WHERE p.stub = false
  // include: fragments/paper-filter
WITH p,
  CASE $field
    WHEN 'YEAR' THEN CASE WHEN p.year IS NULL THEN [] ELSE [[toString(p.year), null]] END
    WHEN 'TYPE' THEN CASE WHEN p.type IS NULL THEN [] ELSE [[p.type, null]] END
    WHEN 'COLLECTION' THEN [c IN coalesce(p.collections, []) | [c, null]]
    WHEN 'TOPIC' THEN COLLECT { MATCH (p)-[:HAS_TOPIC]->(t:Topic) RETURN [t.id, t.name] }
    WHEN 'VENUE' THEN COLLECT { MATCH (p)-[:PUBLISHED_IN]->(v:Venue) RETURN [v.id, v.name] }
    WHEN 'AUTHOR' THEN COLLECT {
      MATCH (p)<-[:AUTHORED]-(a:Author)
      WHERE a.anonymous = false
      RETURN DISTINCT [a.id, a.name]
    }
    WHEN 'INSTITUTION' THEN COLLECT {
      MATCH (p)<-[r:AUTHORED]-(a:Author)
      UNWIND CASE WHEN p.affiliationsPerPaper THEN coalesce(r.institutions, [])
        ELSE [(a)-[:AFFILIATED_WITH]->(x) | x.id] END AS institutionId
      MATCH (i:Institution {id: institutionId})
      RETURN DISTINCT [i.id, i.name]
    }
    WHEN 'COUNTRY' THEN COLLECT {
      MATCH (p)<-[r:AUTHORED]-(a:Author)
      UNWIND CASE WHEN p.affiliationsPerPaper THEN coalesce(r.institutions, [])
        ELSE [(a)-[:AFFILIATED_WITH]->(x) | x.id] END AS institutionId
      MATCH (i:Institution {id: institutionId})
      WHERE i.countryCode IS NOT NULL
      RETURN DISTINCT [i.countryCode, null]
    }
  END AS keys
WITH count(p) AS papers, collect(keys) AS keyLists
WITH papers, size([ks IN keyLists WHERE size(ks) = 0]) AS unknown, keyLists
UNWIND (CASE WHEN size(keyLists) = 0 THEN [[]] ELSE keyLists END) AS ks
UNWIND (CASE WHEN size(ks) = 0 THEN [null] ELSE ks END) AS k
WITH papers, unknown, k[0] AS key, k[1] AS label, count(*) AS n
ORDER BY CASE WHEN $byKey THEN null ELSE n END DESC, key
WITH papers, unknown, collect(CASE WHEN key IS NOT NULL THEN {key: key, label: label, count: n} END) AS groups
RETURN papers, unknown, size(groups) AS totalGroups, groups[..$limit] AS groups
