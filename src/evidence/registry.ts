// The evidences, one record per MeasureKind: the only place a kind is tied to how it is measured.
import { DETERMINISTIC, type DeterministicKind, type Measure } from '../spec/measure.js';
import { ALLOCATIONS } from './allocations.js';
import { CYCLES } from './cycles.js';
import { INSTRUCTIONS } from './instructions.js';
import type { DeterministicEvidence, WallEvidence } from './record.js';
import { WALL } from './wall.js';

// Each deterministic record under its own kind; the type below checks each is a DeterministicEvidence of it.
const RECORDS = { instructions: INSTRUCTIONS, allocations: ALLOCATIONS, cycles: CYCLES } satisfies { [K in DeterministicKind]: { id: K } };

/** Each deterministic evidence's figures of one case, as its record reads them: a count per iteration, or bytes (and allocations) per iteration. */
export type DeterministicFigures = { [K in DeterministicKind]: (typeof RECORDS)[K] extends DeterministicEvidence<K, infer F> ? F : never };

type DeterministicRecords = { [K in DeterministicKind]: DeterministicEvidence<K, DeterministicFigures[K]> };
const DETERMINISTIC_RECORDS: DeterministicRecords = RECORDS;

export type AnyDeterministic = DeterministicRecords[DeterministicKind];
export type Evidence = WallEvidence | AnyDeterministic;

export const EVIDENCES: { wall: WallEvidence } & DeterministicRecords = { wall: WALL, ...DETERMINISTIC_RECORDS };

/** A deterministic evidence's record, typed by its kind (for code generic over the kind). */
export const deterministicEvidence = <K extends DeterministicKind>(kind: K): DeterministicEvidence<K, DeterministicFigures[K]> => DETERMINISTIC_RECORDS[kind];

/** The deterministic kinds of a measure, in MEASURES order. */
export const deterministicOf = (m: Measure): DeterministicKind[] => DETERMINISTIC.filter((k) => m.includes(k));

/** The deterministic evidence whose dumps function profiles read (instruction counts), if any is registered. */
export const PROFILED: DeterministicKind | undefined = DETERMINISTIC.find((k) => DETERMINISTIC_RECORDS[k].profiles);
