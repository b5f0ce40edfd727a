// One venue and its number of full papers.
MATCH (v:Venue {id: $id})
RETURN v {.*} AS venue, COUNT { (v)<-[:PUBLISHED_IN]-(:Paper {stub: false}) } AS papers
