// Package urlquery is the URL codec of a config: Encode writes a config
// as query values (one per field that differs from the default, by its
// short name; "b." keys for a baseline of its own; repeated "obs" and
// "term" values for observed points and terms; "profile" and
// "profile_memory"), and Decode reads them back, reporting each value
// that does not parse or is out of range (naming its field) and keeping
// everything else, so the config it returns is always valid. Decode of
// Encode is the identity on valid configs (the fuzz target and the round
// trips over the estimator's random configs check it). The page's
// address and the server's prerender go through it.
//
// It imports only the standard library and the estimator: the fields'
// text is the registry's (estimator.Field's Text and SetText), and a
// decoded config is made valid by estimator.Repair.
package urlquery
