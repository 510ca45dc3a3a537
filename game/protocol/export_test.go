package protocol

// SpecRows is specRows for the external tests (spec_limits_test.go).
var SpecRows = specRows
