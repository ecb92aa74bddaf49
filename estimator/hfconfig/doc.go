// Package hfconfig imports a Hugging Face config.json: it fills a
// config's model group (and fc2.dtype_bytes from the dtype) from the
// file's keys, tolerant of keys it does not know (it lists them) and
// strict about the values it uses (an error names the key and the
// field), and keeps the architecture fields the resident count reads
// (docs/model.md §14.1), turning resident memory on where the count can
// price the family. Import is what the command line's -hf and config
// reading and the page's import call; Report says what it did with each
// key.
//
// It imports only the standard library and the estimator, whose field
// registry (estimator.FieldByKey), architecture fields
// (estimator.ArchKeys, ArchFields.DecodeKey) and parameter count
// (estimator.Params) it fills and checks the config through.
package hfconfig
