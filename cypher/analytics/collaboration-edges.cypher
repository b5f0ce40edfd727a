// Joint papers between pairs of the given authors within the filter.
MATCH (a:Author)-[:AUTHORED]->(p:Paper)<-[:AUTHORED]-(b:Author)
WHERE a.id IN $authorIds AND b.id IN $authorIds AND a.id < b.id AND p.stub = false
  // include: fragments/paper-filter
WITH a, b, count(DISTINCT p) AS joint
WHERE joint >= $minJoint
RETURN a.id AS source, b.id AS target, joint
ORDER BY joint DESC, source, target
LIMIT $maxEdges
