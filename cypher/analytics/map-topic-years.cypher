// The mean publication year of the filtered full papers carrying each of the topics $ids (a map's overlay colour).
UNWIND $ids AS id
MATCH (:Topic {id: id})<-[:HAS_TOPIC]-(p:Paper)
WHERE p.stub = false
  AND p.year IS NOT NULL
  // include: fragments/paper-filter
RETURN id, avg(p.year) AS meanYear
