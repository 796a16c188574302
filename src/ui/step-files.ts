// The files at each step come from the run engine (src/run/step-files.ts), shared with rewind
// and the thread diff.
export { diffFiles, type FileDiff, type FileMap, filesByStep } from "../run/step-files.js";
