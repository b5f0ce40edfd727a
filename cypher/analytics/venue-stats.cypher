// Venues by number of papers in the filter, with citation totals and the years covered.
MATCH (p:Paper)-[:PUBLISHED_IN]->(v:Venue)
WHERE p.stub = false
  // include: fragments/paper-filter
WITH v, count(p) AS papers, sum(coalesce(p.citedByCount, 0)) AS globalCitations,
     sum(p.internalCitedBy) AS internalCitations, min(p.year) AS firstYear, max(p.year) AS lastYear
ORDER BY papers DESC, v.id
WITH collect([v, papers, globalCitations, internalCitations, firstYear, lastYear]) AS rows
RETURN size(rows) AS total,
       [r IN rows[$skip..($skip + $limit)] | {venue: properties(r[0]), papers: r[1], globalCitations: r[2], internalCitations: r[3], firstYear: r[4], lastYear: r[5]}] AS items
