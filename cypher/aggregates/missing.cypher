// Whether the stored aggregates are missing somewhere (a store written before they existed): a full paper without
// its internal citation count or an author record without its person totals.
RETURN EXISTS { MATCH (p:Paper {stub: false}) WHERE p.internalCitedBy IS NULL } OR
       EXISTS { MATCH (a:Author) WHERE a.personPapers IS NULL } AS missing
