// Run by `pnpm build` after TypeScript: writes the serializer of every subject's reply into dist/serializers
// (see `writeSerializers`), so a compiled service writes its replies without loading Ajv.
import { contractSubjects, writeSerializers } from './serializers.js';

const written = writeSerializers(contractSubjects());
process.stdout.write(`wrote ${written} reply serializers\n`);
