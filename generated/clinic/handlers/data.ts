/**
 * In-memory data of the clinic example: clinicians, their slots in early
 * December 2026, appointments and sent prescriptions. A slot is free unless a
 * `booked` appointment holds it. State is module-level, so every server
 * instance of one process shares it.
 */
import type { Appointment, AppointmentsBookInput, PrescriptionsSendInput, Slot, SlotsSearchInput } from '../types.gen.js';

export type Specialty = SlotsSearchInput['specialty'];

export interface Clinician {
  readonly id: string;
  readonly name: string;
  readonly specialty: Specialty;
}

/** An appointment with what the `Appointment` schema leaves out. */
interface AppointmentRecord {
  readonly appointment: Appointment;
  readonly reason: AppointmentsBookInput['reason'];
  readonly notes?: string;
}

export interface Prescription extends PrescriptionsSendInput {
  readonly reference: string;
  readonly pharmacy: string;
}

const clinicians: readonly Clinician[] = [
  { id: 'D-3', name: 'Dr. Ines Vidal', specialty: 'dermatology' },
  { id: 'D-4', name: 'Dr. Tomasz Nowak', specialty: 'pediatrics' },
  { id: 'D-7', name: 'Dr. Amara Osei', specialty: 'general' },
  { id: 'D-12', name: 'Dr. Hana Sato', specialty: 'cardiology' },
];

const slots: readonly Slot[] = [
  { slotId: 'S-1', clinicianId: 'D-7', start: '2026-12-01T09:00:00Z', minutes: 30 },
  { slotId: 'S-2', clinicianId: 'D-3', start: '2026-12-01T10:00:00Z', minutes: 15 },
  { slotId: 'S-3', clinicianId: 'D-7', start: '2026-12-01T09:30:00Z', minutes: 30 },
  { slotId: 'S-4', clinicianId: 'D-7', start: '2026-12-02T09:00:00Z', minutes: 30 },
  { slotId: 'S-5', clinicianId: 'D-12', start: '2026-12-01T14:00:00Z', minutes: 45 },
  { slotId: 'S-6', clinicianId: 'D-4', start: '2026-12-01T08:30:00Z', minutes: 15 },
  { slotId: 'S-7', clinicianId: 'D-3', start: '2026-12-02T11:00:00Z', minutes: 30 },
  { slotId: 'S-8', clinicianId: 'D-7', start: '2026-11-24T09:00:00Z', minutes: 30 },
];

const pharmacies: Readonly<Record<string, string>> = { 'P-100': 'Linden Pharmacy', 'P-101': 'Station Pharmacy' };

const appointments = new Map<string, AppointmentRecord>([
  [
    'A-1',
    {
      appointment: { appointmentId: 'A-1', slot: slots[7]!, patientId: 'P-100', status: 'booked' },
      reason: 'new_symptoms',
      notes: 'Sore throat for 5 days, fever 38.4 C. Rapid strep test positive. Plan: amoxicillin, fluids, rest; return if not better in 3 days.',
    },
  ],
  ['A-2', { appointment: { appointmentId: 'A-2', slot: slots[2]!, patientId: 'P-101', status: 'booked' }, reason: 'follow_up' }],
]);
let nextAppointment = 3;

const prescriptions: Prescription[] = [];

const copy = <T>(value: T): T => structuredClone(value);

export function findClinician(id: string): Clinician | undefined {
  return clinicians.find((c) => c.id === id);
}

export function clinicianIdsStartingWith(prefix: string): string[] {
  return clinicians.map((c) => c.id).filter((id) => id.startsWith(prefix));
}

export function findSlot(id: string): Slot | undefined {
  const found = slots.find((s) => s.slotId === id);
  return found && copy(found);
}

/** The booked appointment holding a slot, if any. */
export function holderOf(slotId: string): Appointment | undefined {
  for (const r of appointments.values()) if (r.appointment.slot.slotId === slotId && r.appointment.status === 'booked') return copy(r.appointment);
  return undefined;
}

/** A clinician's slots on one day (`YYYY-MM-DD`, UTC), in time order. */
export function slotsOn(clinicianId: string, date: string): Slot[] {
  return slots.filter((s) => s.clinicianId === clinicianId && s.start.startsWith(`${date}T`)).sort((a, b) => a.start.localeCompare(b.start)).map(copy);
}

/** Free slots of a specialty on one day, optionally of one length. */
export function freeSlots(specialty: Specialty, date: string, minutes?: number): Slot[] {
  return clinicians
    .filter((c) => c.specialty === specialty)
    .flatMap((c) => slotsOn(c.id, date))
    .filter((s) => (minutes === undefined || s.minutes === minutes) && !holderOf(s.slotId))
    .sort((a, b) => a.start.localeCompare(b.start));
}

/** Every clinician-day that has slots, for listings. */
export function clinicianDays(): { clinicianId: string; date: string }[] {
  const keys = new Set(slots.map((s) => `${s.clinicianId}|${s.start.slice(0, 10)}`));
  return [...keys].sort().map((k) => {
    const [clinicianId = '', date = ''] = k.split('|');
    return { clinicianId, date };
  });
}

export function findAppointment(id: string): (AppointmentRecord & { readonly clinician?: Clinician }) | undefined {
  const found = appointments.get(id);
  return found && { ...copy(found), ...withClinician(found.appointment.slot.clinicianId) };
}

function withClinician(id: string): { clinician?: Clinician } {
  const clinician = findClinician(id);
  return clinician ? { clinician } : {};
}

/** Books a free slot; the caller checked it is free. */
export function book(slot: Slot, patientId: string, reason: AppointmentRecord['reason']): Appointment {
  const appointment: Appointment = { appointmentId: `A-${nextAppointment++}`, slot: copy(slot), patientId, status: 'booked' };
  appointments.set(appointment.appointmentId, { appointment, reason });
  return copy(appointment);
}

export function prescriptionsOf(appointmentId: string): readonly Prescription[] {
  return prescriptions.filter((p) => p.appointmentId === appointmentId);
}

export function pharmacyOf(patientId: string): string | undefined {
  return pharmacies[patientId];
}

/** Records a sent prescription with the next reference. */
export function recordPrescription(input: PrescriptionsSendInput, pharmacy: string): Prescription {
  const sent: Prescription = { ...input, pharmacy, reference: `RX-${String(prescriptions.length + 1).padStart(5, '0')}` };
  prescriptions.push(sent);
  return sent;
}
