MATCH (p:Paper)
WHERE p.stub = false
UNWIND p.collections AS collection
RETURN collection, count(p) AS papers
ORDER BY collection
