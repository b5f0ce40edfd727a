// Unchanged papers met again in another collection only gain that collection.
UNWIND $ids AS id
MATCH (p:Paper {id: id})
WHERE NOT $collection IN coalesce(p.collections, [])
SET p.collections = coalesce(p.collections, []) + $collection
RETURN count(p) AS touched
