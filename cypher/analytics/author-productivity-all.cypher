// Papers per identified person over the whole graph, for Lotka's law, from the per-person totals aggregates/refresh
// keeps (the record standing for each person carries :Person): what analytics/author-productivity computes with no
// filter, reading one node per person instead of every authorship.
MATCH (a:Person)
WHERE coalesce(a.anonymous, false) = false AND a.personPapers > 0
WITH a.personPapers AS papers, count(a) AS authors
RETURN papers, authors
ORDER BY papers
