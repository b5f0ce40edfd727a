MATCH (t:Topic {id: $id})
RETURN t {.*} AS topic, COUNT { (t)<-[:HAS_TOPIC]-(:Paper {stub: false}) } AS paperCount
