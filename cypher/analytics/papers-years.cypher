// Papers per year among given papers (e.g. those a text query retrieved).
UNWIND $ids AS id
MATCH (p:Paper {id: id})
WHERE p.stub = false AND p.year >= $from AND p.year <= $to
RETURN p.year AS year, count(p) AS count
ORDER BY year
