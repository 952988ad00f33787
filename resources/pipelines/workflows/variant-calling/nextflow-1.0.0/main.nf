#!/usr/bin/env nextflow
// Variant calling for Laneway: minimap2 alignment, samtools sort, bcftools mpileup and call.
// Laneway passes params.input (a sample sheet: sample,fastq_1,fastq_2), params.reference,
// params.outdir, params.max_reads (test mode, 0 for all) and the version's parameters.
nextflow.enable.dsl = 2

params.min_base_quality = 13
params.ploidy = '2'
params.max_reads = 0
params.max_cpus = 2

process ALIGN {
    tag "$sample"
    cpus params.max_cpus
    input:
    tuple val(sample), path(reads)
    path reference
    output:
    tuple val(sample), path("${sample}.sorted.bam")
    script:
    def inputs = params.max_reads ? reads.collect { "<(gzip -cdf $it | head -n ${4 * params.max_reads})" }.join(' ') : reads.join(' ')
    """
    minimap2 -a -x sr -t ${task.cpus} ${reference} ${inputs} | samtools sort -o ${sample}.sorted.bam -
    """
}

process CALL {
    tag "$sample"
    publishDir params.outdir, mode: 'copy'
    input:
    tuple val(sample), path(bam)
    path reference
    output:
    path "${sample}.vcf.gz"
    script:
    """
    bcftools mpileup -Q ${params.min_base_quality} -f ${reference} ${bam} \
      | bcftools call -mv --ploidy ${params.ploidy} -Oz -o ${sample}.vcf.gz
    """
}

workflow {
    samples = Channel.fromPath(params.input)
        .splitCsv(header: true)
        .map { row -> tuple(row.sample, row.fastq_2 ? [file(row.fastq_1), file(row.fastq_2)] : [file(row.fastq_1)]) }
    reference = file(params.reference)
    ALIGN(samples, reference)
    CALL(ALIGN.out, reference)
}
