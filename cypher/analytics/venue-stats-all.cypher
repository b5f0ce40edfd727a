// Venues of the whole graph by number of full papers, from the totals aggregates/refresh keeps on each venue: what
// analytics/venue-stats computes with no filter, without reading every paper (the cost grows with the venues only).
MATCH (v:Venue)
WHERE v.venuePapers > 0
WITH v ORDER BY v.venuePapers DESC, v.id
WITH collect(v) AS rows
RETURN size(rows) AS total,
       [v IN rows[$skip..($skip + $limit)] | {venue: properties(v), papers: v.venuePapers, globalCitations: v.venueGlobal,
        internalCitations: v.venueInternal, firstYear: v.venueFirstYear, lastYear: v.venueLastYear}] AS items
