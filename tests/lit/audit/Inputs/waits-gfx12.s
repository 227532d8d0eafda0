	.amdgcn_target "amdgcn-amd-amdhsa--gfx1201"
	.type	k12,@function
k12:
.LBB0_1:
	global_load_b128 v[4:7], v[0:1], off
	ds_load_b128 v[8:11], v2
	ds_store_b64 v2, v[4:5]
	s_wait_loadcnt 0x0
	s_wait_dscnt 0x2
	s_wait_loadcnt_dscnt 0x0
	s_wait_kmcnt 0x1
	s_wait_alu 0xfffe
	s_delay_alu instid0(VALU_DEP_1)
	v_wmma_f32_16x16x16_f16 v[16:23], v[8:11], v[12:15], v[16:23]
	s_barrier_signal -1
	s_barrier_wait 0xffff
	s_cbranch_scc0 .LBB0_1
	s_endpgm
.Lfunc_end0:
