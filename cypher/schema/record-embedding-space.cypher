// Records the model of a space's chunk vectors (one node per space; `since` when it last changed).
MERGE (space:EmbeddingSpace {id: $space})
SET space.model = $model, space.since = datetime()
RETURN space.model AS model
