/* des_ref: DES and 3DES (TDEA, FIPS 46-3 / NIST SP 800-67) written
 * straight from the standard's tables, one bit at a time: the host
 * reference for the IPSec event kernel, independent of the kernel's
 * table-driven form.  Checked against published known-answer vectors in
 * tests/test_event_kernels.c. */
#ifndef WORK_DES_REF_H
#define WORK_DES_REF_H

#include <stdint.h>

/* The 16 round subkeys of key (48 bits each, the standard's bit 1 in bit 47). */
void des_ref_subkeys(uint64_t key, uint64_t sk[16]);
/* One block; decrypt applies the subkeys in reverse order. */
uint64_t des_ref_block(const uint64_t sk[16], uint64_t in, int decrypt);
/* TDEA encryption E_K3(D_K2(E_K1(x))) and decryption D_K1(E_K2(D_K3(x))). */
uint64_t des3_ref_encrypt(const uint64_t k[3], uint64_t in);
uint64_t des3_ref_decrypt(const uint64_t k[3], uint64_t in);

/* The standard's S-boxes and permutation P, for builders of other forms
 * (S-box b = 0..7, 6-bit input with the standard's first bit in bit 5;
 * P maps a 32-bit word, the standard's bit 1 in bit 31). */
uint32_t des_ref_sbox(unsigned b, unsigned in6);
uint32_t des_ref_p(uint32_t x);

#endif
