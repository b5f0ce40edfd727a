// Whether the stored aggregates are missing somewhere (a store written before they existed): a full paper without
// its internal citation count, an author record without its person totals, a venue without its totals, or authors
// and no :Person label (a store written before the label existed).
RETURN EXISTS { MATCH (p:Paper {stub: false}) WHERE p.internalCitedBy IS NULL } OR
       EXISTS { MATCH (a:Author) WHERE a.personPapers IS NULL } OR
       EXISTS { MATCH (v:Venue) WHERE v.venuePapers IS NULL } OR
       (EXISTS { MATCH (:Author) } AND NOT EXISTS { MATCH (:Person) }) AS missing
