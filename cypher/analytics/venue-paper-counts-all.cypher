// What analytics/venue-paper-counts computes with no filter, from the totals aggregates/refresh keeps on each venue
// and in all (PaperTotals): a paper has at most one venue, so the papers without one are all full papers less the
// venues' papers. The cost grows with the venues only.
MATCH (v:Venue)
WHERE v.venuePapers > 0
WITH v ORDER BY v.venuePapers DESC, v.id
WITH collect({venue: properties(v), papers: v.venuePapers}) AS venues, sum(v.venuePapers) AS withVenue
OPTIONAL MATCH (c:PaperTotals {id: 'full'})
WITH venues, coalesce(c.papers, 0) - withVenue AS without
UNWIND venues + CASE WHEN without > 0 THEN [{venue: null, papers: without}] ELSE [] END AS row
RETURN row.venue AS venue, row.papers AS papers
