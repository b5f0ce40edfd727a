MATCH (p:Paper)
WHERE p.stub = false
  // include: fragments/paper-filter
RETURN count(p) AS total
